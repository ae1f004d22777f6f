/**
 * Each receipt's status history: one row per status the mirror saw it take. A change is identified by
 * the receipt, the provider's version of it (its update time) and the status, so two syncs that see
 * the same change (two processes, or "sync now" during a scheduled one) record it once.
 * Receipts mirrored before this migration start their history with the status they have now.
 */
import { DataTypes, type QueryInterface } from 'sequelize';

export async function up(queryInterface: QueryInterface): Promise<void> {
  await queryInterface.createTable('receipt_status_changes', {
    id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
    receiptId: { type: DataTypes.INTEGER, allowNull: false },
    status: { type: DataTypes.STRING(100), allowNull: false },
    /** The provider's update time of the receipt version that showed this status. */
    version: { type: DataTypes.DATE, allowNull: false },
    /** When the status was taken: the provider's update time, or the sync's when it gives none. */
    at: { type: DataTypes.DATE, allowNull: false },
  });
  await queryInterface.addIndex('receipt_status_changes', ['receiptId', 'version', 'status'], {
    unique: true,
    name: 'receipt_status_changes_change',
  });
  await queryInterface.sequelize.query(
    `INSERT INTO "receipt_status_changes" ("receiptId", "status", "version", "at")
     SELECT "id", "status", "providerUpdatedAt", CASE WHEN "providerUpdatedAt" > :epoch THEN "providerUpdatedAt" ELSE :now END FROM "receipts"`,
    { replacements: { epoch: new Date(0), now: new Date() } },
  );
}

export async function down(queryInterface: QueryInterface): Promise<void> {
  await queryInterface.dropTable('receipt_status_changes');
}
