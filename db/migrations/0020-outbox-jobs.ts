import { DataTypes, type QueryInterface } from 'sequelize';

/**
 * The outbox's second lane: work for other systems that must survive an outage of theirs and a
 * restart of ours (forwarding to the provider, webhook deliveries). A job is written in the same
 * transaction as what caused it, claimed with a lease, retried with growing waits, and ends done or
 * given up. `kind` names the handler; `payload` is JSON that the handler validates itself.
 */
export async function up(queryInterface: QueryInterface): Promise<void> {
  await queryInterface.createTable('outbox_jobs', {
    id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
    kind: { type: DataTypes.STRING(60), allowNull: false },
    payload: { type: DataTypes.TEXT, allowNull: false },
    attempts: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
    nextAttemptAt: { type: DataTypes.DATE, allowNull: false },
    claimedUntil: { type: DataTypes.DATE, allowNull: true },
    lastError: { type: DataTypes.TEXT, allowNull: true },
    doneAt: { type: DataTypes.DATE, allowNull: true },
    failedAt: { type: DataTypes.DATE, allowNull: true },
    createdAt: { type: DataTypes.DATE, allowNull: false },
  });
  await queryInterface.addIndex('outbox_jobs', ['doneAt', 'failedAt', 'nextAttemptAt']);
}

export async function down(queryInterface: QueryInterface): Promise<void> {
  await queryInterface.dropTable('outbox_jobs');
}
