import { DataTypes, type QueryInterface } from 'sequelize';

/**
 * The login limiter's counters: one row per username and client address, and one per address, each
 * counting the failures of its current window and the checks still running. They replace the row per
 * failure, which needed a transaction around the count and the insert.
 */
export async function up(queryInterface: QueryInterface): Promise<void> {
  await queryInterface.createTable('login_attempts', {
    key: { type: DataTypes.STRING(200), primaryKey: true },
    failures: { type: DataTypes.INTEGER, allowNull: false },
    pending: { type: DataTypes.INTEGER, allowNull: false },
    /** Epoch milliseconds of the window's first failure. */
    windowStartedAt: { type: DataTypes.BIGINT, allowNull: false },
  });
  await queryInterface.addIndex('login_attempts', ['windowStartedAt']);
  await queryInterface.dropTable('login_failures');
}

export async function down(queryInterface: QueryInterface): Promise<void> {
  await queryInterface.createTable('login_failures', {
    id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
    username: { type: DataTypes.STRING(128), allowNull: false },
    address: { type: DataTypes.STRING(64), allowNull: false },
    createdAt: { type: DataTypes.DATE, allowNull: false },
  });
  await queryInterface.addIndex('login_failures', ['username', 'address', 'createdAt']);
  await queryInterface.addIndex('login_failures', ['address', 'createdAt']);
  await queryInterface.dropTable('login_attempts');
}
