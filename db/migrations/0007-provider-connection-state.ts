import { DataTypes, type QueryInterface } from 'sequelize';

/**
 * The provider connection's state beside its tokens: when and why the provider refused the refresh
 * token (the admin must reconnect), and the lease of the one process refreshing right now.
 */
export async function up(queryInterface: QueryInterface): Promise<void> {
  await queryInterface.addColumn('provider_tokens', 'reconnectRequiredAt', {
    type: DataTypes.DATE,
    allowNull: true,
  });
  await queryInterface.addColumn('provider_tokens', 'reconnectReason', {
    type: DataTypes.TEXT,
    allowNull: true,
  });
  await queryInterface.addColumn('provider_tokens', 'refreshLeaseUntil', {
    type: DataTypes.DATE,
    allowNull: true,
  });
}

export async function down(queryInterface: QueryInterface): Promise<void> {
  await queryInterface.removeColumn('provider_tokens', 'refreshLeaseUntil');
  await queryInterface.removeColumn('provider_tokens', 'reconnectReason');
  await queryInterface.removeColumn('provider_tokens', 'reconnectRequiredAt');
}
