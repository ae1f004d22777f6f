import { DataTypes, type QueryInterface } from 'sequelize';

/**
 * Webhooks: a user's endpoints, told of receipt events by signed HTTP POSTs (Standard Webhooks), and
 * the last attempts of each. The signing secret must be kept to sign with, so it is stored encrypted
 * with a key derived from the app secret; it is shown to its owner once. An endpoint goes with its
 * owner's account, and its attempts with it (cascades on delete).
 */
export async function up(queryInterface: QueryInterface): Promise<void> {
  await queryInterface.createTable('webhook_endpoints', {
    id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
    userId: {
      type: DataTypes.INTEGER,
      allowNull: false,
      references: { model: 'users', key: 'id' },
      onDelete: 'CASCADE',
    },
    url: { type: DataTypes.STRING(2000), allowNull: false },
    /** The event types it takes, comma-separated. */
    events: { type: DataTypes.STRING(200), allowNull: false },
    /** The `whsec_…` secret, AES-256-GCM ciphertext. */
    secret: { type: DataTypes.TEXT, allowNull: false },
    enabled: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: true },
    /** Why it is disabled: `owner` (turned off by its owner) or `failing` (failed for days on end). */
    disabledReason: { type: DataTypes.STRING(20), allowNull: true },
    disabledAt: { type: DataTypes.DATE, allowNull: true },
    /** The first failed attempt since its last success; null while it works. */
    failingSince: { type: DataTypes.DATE, allowNull: true },
    lastSuccessAt: { type: DataTypes.DATE, allowNull: true },
    createdAt: { type: DataTypes.DATE, allowNull: false },
  });
  await queryInterface.addIndex('webhook_endpoints', ['userId']);

  await queryInterface.createTable('webhook_deliveries', {
    id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
    endpointId: {
      type: DataTypes.INTEGER,
      allowNull: false,
      references: { model: 'webhook_endpoints', key: 'id' },
      onDelete: 'CASCADE',
    },
    /** The `webhook-id` header: the same on every attempt of one message. */
    messageId: { type: DataTypes.STRING(64), allowNull: false },
    eventType: { type: DataTypes.STRING(40), allowNull: false },
    /** 1 for a message's first attempt. */
    attempt: { type: DataTypes.INTEGER, allowNull: false },
    at: { type: DataTypes.DATE, allowNull: false },
    durationMs: { type: DataTypes.INTEGER, allowNull: false },
    succeeded: { type: DataTypes.BOOLEAN, allowNull: false },
    /** The answer's status; null when none came (refused, unreachable, timed out). */
    statusCode: { type: DataTypes.INTEGER, allowNull: true },
    error: { type: DataTypes.STRING(500), allowNull: true },
    /** The start of the answer's body. */
    answer: { type: DataTypes.TEXT, allowNull: true },
  });
  await queryInterface.addIndex('webhook_deliveries', ['endpointId', 'id']);
}

export async function down(queryInterface: QueryInterface): Promise<void> {
  await queryInterface.dropTable('webhook_deliveries');
  await queryInterface.dropTable('webhook_endpoints');
}
