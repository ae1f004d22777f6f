import { DataTypes, type QueryInterface } from 'sequelize';

/**
 * Jobs that must reach the other side in the order they were written (the forwards of one pre-alert)
 * share an ordering key: a job is claimed only once every older job with its key is done or given up.
 * Null for a job that may run beside any other.
 */
export async function up(queryInterface: QueryInterface): Promise<void> {
  await queryInterface.addColumn('outbox_jobs', 'orderingKey', {
    type: DataTypes.STRING(120),
    allowNull: true,
  });
  await queryInterface.addIndex('outbox_jobs', ['orderingKey', 'id']);
}

export async function down(queryInterface: QueryInterface): Promise<void> {
  await queryInterface.removeIndex('outbox_jobs', ['orderingKey', 'id']);
  await queryInterface.removeColumn('outbox_jobs', 'orderingKey');
}
