import { DataTypes, type QueryInterface } from 'sequelize';

/**
 * The sync lease: one row that the process running a sync holds until it ends (renewed meanwhile,
 * expiring on its own when the holder dies), and where it leaves the outcome for the processes that
 * waited for it. Several portals on one database thus run one sync at a time.
 */
export async function up(queryInterface: QueryInterface): Promise<void> {
  await queryInterface.createTable('sync_lease', {
    name: { type: DataTypes.STRING(50), primaryKey: true },
    /** The process holding (or last holding) the lease. */
    holder: { type: DataTypes.STRING(100), allowNull: true },
    /** The sync run under the lease: waiters recognise the outcome of the run they joined by it. */
    run: { type: DataTypes.STRING(100), allowNull: true },
    /** Epoch milliseconds; 0 once released. */
    expiresAt: { type: DataTypes.BIGINT, allowNull: false },
    /** The finished run's result or error, as JSON. */
    outcome: { type: DataTypes.TEXT, allowNull: true },
  });
  await queryInterface.bulkInsert('sync_lease', [
    { name: 'receipts', holder: null, run: null, expiresAt: 0, outcome: null },
  ]);
}

export async function down(queryInterface: QueryInterface): Promise<void> {
  await queryInterface.dropTable('sync_lease');
}
