/**
 * The tables of file imports (PROVIDER=file): how an imported receipt is known again, the history,
 * the saved mappings.
 */
import {
  DataTypes,
  Model,
  type CreationOptional,
  type InferAttributes,
  type InferCreationAttributes,
  type Sequelize,
} from 'sequelize';

export function defineImportModels(sequelize: Sequelize) {
  /**
   * How an imported receipt is known again (PROVIDER=file): its number, its portal id and a
   * fingerprint of what the file said.
   */
  class ImportedReceipt extends Model<
    InferAttributes<ImportedReceipt>,
    InferCreationAttributes<ImportedReceipt>
  > {
    declare number: string;
    declare receiptId: number;
    declare fingerprint: string;
  }

  ImportedReceipt.init(
    {
      number: { type: DataTypes.STRING(40), primaryKey: true },
      receiptId: { type: DataTypes.INTEGER, allowNull: false, unique: true },
      fingerprint: { type: DataTypes.STRING(64), allowNull: false },
    },
    { sequelize, tableName: 'imported_receipts', timestamps: false },
  );

  /** One import of a file: who, which file, when, its counts and its row errors (JSON). */
  class ImportRun extends Model<InferAttributes<ImportRun>, InferCreationAttributes<ImportRun>> {
    declare id: CreationOptional<number>;
    declare fileName: string;
    declare format: string;
    declare via: string;
    declare userId: number | null;
    declare username: string | null;
    declare full: boolean;
    declare created: number;
    declare updated: number;
    declare unchanged: number;
    declare removed: number;
    declare errors: string;
    declare at: Date;
  }

  ImportRun.init(
    {
      id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
      fileName: { type: DataTypes.STRING(255), allowNull: false },
      format: { type: DataTypes.STRING(10), allowNull: false },
      via: { type: DataTypes.STRING(10), allowNull: false },
      userId: { type: DataTypes.INTEGER, allowNull: true },
      username: { type: DataTypes.STRING(100), allowNull: true },
      full: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
      created: { type: DataTypes.INTEGER, allowNull: false },
      updated: { type: DataTypes.INTEGER, allowNull: false },
      unchanged: { type: DataTypes.INTEGER, allowNull: false },
      removed: { type: DataTypes.INTEGER, allowNull: false },
      errors: { type: DataTypes.TEXT, allowNull: false },
      at: { type: DataTypes.DATE, allowNull: false },
    },
    { sequelize, tableName: 'imports', timestamps: false },
  );

  /** An admin's column mapping for one source, by the SHA-256 of its header row. */
  class ImportMapping extends Model<
    InferAttributes<ImportMapping>,
    InferCreationAttributes<ImportMapping>
  > {
    declare signature: string;
    declare mapping: string;
    declare updatedAt: Date;
  }

  ImportMapping.init(
    {
      signature: { type: DataTypes.STRING(64), primaryKey: true },
      mapping: { type: DataTypes.TEXT, allowNull: false },
      updatedAt: { type: DataTypes.DATE, allowNull: false },
    },
    { sequelize, tableName: 'import_mappings', timestamps: false },
  );

  return { ImportedReceipt, ImportRun, ImportMapping };
}

export type ImportModels = ReturnType<typeof defineImportModels>;
