import { DataTypes, type QueryInterface } from 'sequelize';

/**
 * PROVIDER=magaya. Magaya names receipts and consignees by GUID; the portal's are numbered, so each
 * GUID keeps the number it was first given, across syncs and full re-reads (`magaya_receipts`,
 * `magaya_consignees`). A receipt's `digest` is a hash of what the portal read of it and `versionAt`
 * when that last changed: a re-read of an unchanged receipt writes nothing. `magaya_connection` is the
 * one row of the API user an admin entered (the password AES-256-GCM ciphertext) and the outcome of
 * the last session.
 */
export async function up(queryInterface: QueryInterface): Promise<void> {
  await queryInterface.createTable('magaya_receipts', {
    id: { type: DataTypes.INTEGER, primaryKey: true },
    guid: { type: DataTypes.STRING(64), allowNull: false, unique: true },
    digest: { type: DataTypes.STRING(64), allowNull: true },
    versionAt: { type: DataTypes.DATE, allowNull: true },
  });
  await queryInterface.createTable('magaya_consignees', {
    id: { type: DataTypes.INTEGER, primaryKey: true },
    guid: { type: DataTypes.STRING(64), allowNull: false, unique: true },
    name: { type: DataTypes.STRING(200), allowNull: false },
  });
  await queryInterface.createTable('magaya_connection', {
    id: { type: DataTypes.INTEGER, primaryKey: true },
    username: { type: DataTypes.STRING(200), allowNull: true },
    /** AES-256-GCM ciphertext. */
    password: { type: DataTypes.TEXT, allowNull: true },
    lastSessionAt: { type: DataTypes.DATE, allowNull: true },
    /** Magaya's or the client's error code of the last session; null when it succeeded. */
    lastSessionError: { type: DataTypes.STRING(64), allowNull: true },
    updatedAt: { type: DataTypes.DATE, allowNull: true },
  });
}

export async function down(queryInterface: QueryInterface): Promise<void> {
  await queryInterface.dropTable('magaya_connection');
  await queryInterface.dropTable('magaya_consignees');
  await queryInterface.dropTable('magaya_receipts');
}
