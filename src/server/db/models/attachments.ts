/** The tables of a receipt's photos and documents. */
import {
  DataTypes,
  Model,
  type CreationOptional,
  type InferAttributes,
  type InferCreationAttributes,
  type Sequelize,
} from 'sequelize';
import { type AttachmentKind } from '~/shared/attachments';

export function defineAttachmentModels(sequelize: Sequelize) {
  /**
   * When a receipt's attachment list was fetched from the provider, and for which version of the
   * receipt (migration 0022).
   */
  class ReceiptAttachmentList extends Model<
    InferAttributes<ReceiptAttachmentList>,
    InferCreationAttributes<ReceiptAttachmentList>
  > {
    declare receiptId: number;
    declare receiptVersion: Date;
    declare checkedAt: Date;
  }

  ReceiptAttachmentList.init(
    {
      receiptId: { type: DataTypes.INTEGER, primaryKey: true },
      receiptVersion: { type: DataTypes.DATE, allowNull: false },
      checkedAt: { type: DataTypes.DATE, allowNull: false },
    },
    { sequelize, tableName: 'receipt_attachment_lists', timestamps: false },
  );

  /** A photo or document the provider lists with a receipt; its bytes in UPLOADS_DIR once fetched (migration 0022). */
  class ReceiptAttachment extends Model<
    InferAttributes<ReceiptAttachment>,
    InferCreationAttributes<ReceiptAttachment>
  > {
    declare id: CreationOptional<number>;
    declare receiptId: number;
    declare providerId: string;
    declare position: number;
    declare kind: AttachmentKind;
    declare fileName: string;
    declare contentType: string;
    /** BIGINT: PostgreSQL answers it as text; read it with Number(). */
    declare size: number | string;
    declare providerCreatedAt: Date | null;
    declare storedName: CreationOptional<string | null>;
    declare storedType: CreationOptional<string | null>;
    declare storedSize: CreationOptional<number | string | null>;
    /** JSON of src/server/services/attachments.ts's Previews; null until made. */
    declare previews: CreationOptional<string | null>;
    declare fetchedAt: CreationOptional<Date | null>;
  }

  ReceiptAttachment.init(
    {
      id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
      receiptId: { type: DataTypes.INTEGER, allowNull: false },
      providerId: { type: DataTypes.STRING(200), allowNull: false },
      position: { type: DataTypes.INTEGER, allowNull: false },
      kind: { type: DataTypes.STRING(10), allowNull: false },
      fileName: { type: DataTypes.STRING(255), allowNull: false },
      contentType: { type: DataTypes.STRING(100), allowNull: false },
      size: { type: DataTypes.BIGINT, allowNull: false },
      providerCreatedAt: { type: DataTypes.DATE, allowNull: true },
      storedName: { type: DataTypes.STRING(100), allowNull: true },
      storedType: { type: DataTypes.STRING(100), allowNull: true },
      storedSize: { type: DataTypes.BIGINT, allowNull: true },
      previews: { type: DataTypes.TEXT, allowNull: true },
      fetchedAt: { type: DataTypes.DATE, allowNull: true },
    },
    { sequelize, tableName: 'receipt_attachments', timestamps: false },
  );

  return { ReceiptAttachmentList, ReceiptAttachment };
}

export type AttachmentModels = ReturnType<typeof defineAttachmentModels>;
