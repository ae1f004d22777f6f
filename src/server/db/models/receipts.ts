/** The tables of the mirror: receipts, their packages and statuses, the mirror's bookkeeping, share links. */
import {
  DataTypes,
  Model,
  type CreationOptional,
  type InferAttributes,
  type InferCreationAttributes,
  type Sequelize,
} from 'sequelize';

export function defineReceiptModels(sequelize: Sequelize) {
  /** The mirror of the provider's receipts; the id is the provider's. */
  class ReceiptRecord extends Model<
    InferAttributes<ReceiptRecord>,
    InferCreationAttributes<ReceiptRecord>
  > {
    declare id: number;
    declare number: string;
    declare receivedDate: Date | null;
    declare shipperName: string;
    declare consigneeId: number | null;
    declare consigneeName: string;
    declare pieces: number;
    declare totalWeightValue: number;
    declare totalVolumeValue: number;
    declare destination: string;
    declare status: string;
    declare modeOfTransportation: string;
    declare originName: string;
    /** Sort keys of the text columns (src/shared/sort-key.ts): what the list orders by. */
    declare numberSort: string;
    declare shipperNameSort: string;
    declare consigneeNameSort: string;
    declare statusSort: string;
    declare destinationSort: string;
    declare modeOfTransportationSort: string;
    declare originNameSort: string;
    /** Receipt number, shipper and consignee in lower case: what the general search matches. */
    declare searchText: string;
    declare providerUpdatedAt: Date;
  }

  ReceiptRecord.init(
    {
      id: { type: DataTypes.INTEGER, primaryKey: true },
      number: { type: DataTypes.STRING(40), allowNull: false },
      receivedDate: { type: DataTypes.DATE, allowNull: true },
      shipperName: { type: DataTypes.STRING(200), allowNull: false },
      consigneeId: { type: DataTypes.INTEGER, allowNull: true },
      consigneeName: { type: DataTypes.STRING(200), allowNull: false },
      pieces: { type: DataTypes.INTEGER, allowNull: false },
      totalWeightValue: { type: DataTypes.DOUBLE, allowNull: false },
      totalVolumeValue: { type: DataTypes.DOUBLE, allowNull: false },
      destination: { type: DataTypes.STRING(200), allowNull: false },
      status: { type: DataTypes.STRING(100), allowNull: false },
      modeOfTransportation: { type: DataTypes.STRING(100), allowNull: false },
      originName: { type: DataTypes.STRING(200), allowNull: false },
      numberSort: { type: DataTypes.TEXT, allowNull: false },
      shipperNameSort: { type: DataTypes.TEXT, allowNull: false },
      consigneeNameSort: { type: DataTypes.TEXT, allowNull: false },
      statusSort: { type: DataTypes.TEXT, allowNull: false },
      destinationSort: { type: DataTypes.TEXT, allowNull: false },
      modeOfTransportationSort: { type: DataTypes.TEXT, allowNull: false },
      originNameSort: { type: DataTypes.TEXT, allowNull: false },
      searchText: { type: DataTypes.STRING(700), allowNull: false },
      providerUpdatedAt: { type: DataTypes.DATE, allowNull: false },
    },
    { sequelize, tableName: 'receipts', timestamps: false },
  );

  /** A receipt's commodities (the provider's `commodities`, docs/provider-api.md §2), in the provider's order. */
  class PackageRecord extends Model<
    InferAttributes<PackageRecord>,
    InferCreationAttributes<PackageRecord>
  > {
    declare id: CreationOptional<number>;
    declare receiptId: number;
    declare position: number;
    declare description: string;
    declare trackingNumber: string | null;
    /** The tracking number upper-cased without spaces: what the tracking filter matches. */
    declare trackingKey: string | null;
    declare pieces: number;
    declare totalWeightValue: number;
    declare totalVolumeValue: number;
  }

  PackageRecord.init(
    {
      id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
      receiptId: { type: DataTypes.INTEGER, allowNull: false },
      position: { type: DataTypes.INTEGER, allowNull: false },
      description: { type: DataTypes.STRING(300), allowNull: false },
      trackingNumber: { type: DataTypes.STRING(64), allowNull: true },
      trackingKey: { type: DataTypes.STRING(64), allowNull: true },
      pieces: { type: DataTypes.INTEGER, allowNull: false },
      totalWeightValue: { type: DataTypes.DOUBLE, allowNull: false },
      totalVolumeValue: { type: DataTypes.DOUBLE, allowNull: false },
    },
    { sequelize, tableName: 'packages', timestamps: false },
  );

  ReceiptRecord.hasMany(PackageRecord, { foreignKey: 'receiptId', onDelete: 'CASCADE' });
  PackageRecord.belongsTo(ReceiptRecord, { foreignKey: 'receiptId' });

  /** One status a receipt took, as the mirror saw it (migration 0009). */
  class ReceiptStatusChange extends Model<
    InferAttributes<ReceiptStatusChange>,
    InferCreationAttributes<ReceiptStatusChange>
  > {
    declare id: CreationOptional<number>;
    declare receiptId: number;
    declare status: string;
    declare version: Date;
    declare at: Date;
  }

  ReceiptStatusChange.init(
    {
      id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
      receiptId: { type: DataTypes.INTEGER, allowNull: false },
      status: { type: DataTypes.STRING(100), allowNull: false },
      version: { type: DataTypes.DATE, allowNull: false },
      at: { type: DataTypes.DATE, allowNull: false },
    },
    { sequelize, tableName: 'receipt_status_changes', timestamps: false },
  );

  /** The one row of mirror bookkeeping. */
  class SyncState extends Model<InferAttributes<SyncState>, InferCreationAttributes<SyncState>> {
    declare id: number;
    declare cursor: string | null;
    declare lastSuccessAt: Date | null;
    /** Receipts the last successful sync wrote (new or changed) and removed. */
    declare lastWritten: number | null;
    declare lastDeleted: number | null;
    declare lastFullSyncAt: Date | null;
    declare lastErrorAt: Date | null;
    declare lastError: string | null;
    declare lastConsigneeImportAt: Date | null;
    /** When the sandbox demo customer was made: it is made once, never again after a deletion. */
    declare demoUsersCreatedAt: Date | null;
    /** Counts the syncs that changed the mirror; each process follows it to know when its caches are stale. */
    declare mirrorVersion: CreationOptional<number>;
  }

  SyncState.init(
    {
      id: { type: DataTypes.INTEGER, primaryKey: true },
      cursor: { type: DataTypes.STRING(200), allowNull: true },
      lastSuccessAt: { type: DataTypes.DATE, allowNull: true },
      lastWritten: { type: DataTypes.INTEGER, allowNull: true },
      lastDeleted: { type: DataTypes.INTEGER, allowNull: true },
      lastFullSyncAt: { type: DataTypes.DATE, allowNull: true },
      lastErrorAt: { type: DataTypes.DATE, allowNull: true },
      lastError: { type: DataTypes.TEXT, allowNull: true },
      lastConsigneeImportAt: { type: DataTypes.DATE, allowNull: true },
      demoUsersCreatedAt: { type: DataTypes.DATE, allowNull: true },
      mirrorVersion: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
    },
    { sequelize, tableName: 'sync_state', timestamps: false },
  );

  /** A customer's read-only link to one receipt, opened without signing in (migration 0019). */
  class ShareLink extends Model<InferAttributes<ShareLink>, InferCreationAttributes<ShareLink>> {
    declare id: CreationOptional<number>;
    declare userId: number;
    declare receiptId: number;
    /** SHA-256 of the token, hex: the token itself is never stored. */
    declare tokenHash: string;
    declare createdAt: Date;
    declare expiresAt: Date;
    declare revokedAt: CreationOptional<Date | null>;
  }

  ShareLink.init(
    {
      id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
      userId: { type: DataTypes.INTEGER, allowNull: false },
      receiptId: { type: DataTypes.INTEGER, allowNull: false },
      tokenHash: { type: DataTypes.STRING(64), allowNull: false, unique: true },
      createdAt: { type: DataTypes.DATE, allowNull: false },
      expiresAt: { type: DataTypes.DATE, allowNull: false },
      revokedAt: { type: DataTypes.DATE, allowNull: true },
    },
    { sequelize, tableName: 'share_links', updatedAt: false, createdAt: false },
  );

  return { ReceiptRecord, PackageRecord, ReceiptStatusChange, SyncState, ShareLink };
}

export type ReceiptModels = ReturnType<typeof defineReceiptModels>;
