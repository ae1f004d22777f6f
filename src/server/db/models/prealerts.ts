/** The tables of customers' pre-alerts. */
import {
  DataTypes,
  Model,
  type CreationOptional,
  type InferAttributes,
  type InferCreationAttributes,
  type Sequelize,
} from 'sequelize';

/**
 * How a pre-alert came to its receipt: its package arrived (the sync, or it was made after), or an
 * admin linked them.
 */
export type PrealertMatchedBy = 'arrival' | 'admin';

export function definePrealertModels(sequelize: Sequelize) {
  /** A customer's announcement of a package on its way, linked to its receipt once it arrives (migration 0021). */
  class Prealert extends Model<InferAttributes<Prealert>, InferCreationAttributes<Prealert>> {
    declare id: CreationOptional<number>;
    declare userId: number | null;
    declare consigneeId: number;
    declare carrier: string;
    /** Upper case, without spaces or dashes (normalizeTrackingNumber in src/shared/prealerts.ts). */
    declare trackingNumber: string;
    declare shipper: string;
    declare description: string;
    declare declaredValueCents: number;
    /** The invoice's file in UPLOADS_DIR/prealerts; null without one. */
    declare invoiceFileName: string | null;
    declare invoiceOriginalName: string | null;
    declare invoiceContentType: string | null;
    declare invoiceSize: number | null;
    declare receiptId: CreationOptional<number | null>;
    declare matchedAt: CreationOptional<Date | null>;
    declare matchedBy: CreationOptional<PrealertMatchedBy | null>;
    declare declinedReceiptId: CreationOptional<number | null>;
    declare createdAt: Date;
    declare updatedAt: Date;
  }

  Prealert.init(
    {
      id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
      userId: { type: DataTypes.INTEGER, allowNull: true },
      consigneeId: { type: DataTypes.INTEGER, allowNull: false },
      carrier: { type: DataTypes.STRING(20), allowNull: false },
      trackingNumber: { type: DataTypes.STRING(40), allowNull: false },
      shipper: { type: DataTypes.STRING(100), allowNull: false },
      description: { type: DataTypes.STRING(300), allowNull: false },
      declaredValueCents: { type: DataTypes.INTEGER, allowNull: false },
      invoiceFileName: { type: DataTypes.STRING(100), allowNull: true },
      invoiceOriginalName: { type: DataTypes.STRING(255), allowNull: true },
      invoiceContentType: { type: DataTypes.STRING(50), allowNull: true },
      invoiceSize: { type: DataTypes.INTEGER, allowNull: true },
      receiptId: { type: DataTypes.INTEGER, allowNull: true },
      matchedAt: { type: DataTypes.DATE, allowNull: true },
      matchedBy: { type: DataTypes.STRING(20), allowNull: true },
      declinedReceiptId: { type: DataTypes.INTEGER, allowNull: true },
      createdAt: { type: DataTypes.DATE, allowNull: false },
      updatedAt: { type: DataTypes.DATE, allowNull: false },
    },
    // Both times are written by the portal's clock, as everything that compares them.
    { sequelize, tableName: 'prealerts', timestamps: false },
  );

  return { Prealert };
}

export type PrealertModels = ReturnType<typeof definePrealertModels>;
