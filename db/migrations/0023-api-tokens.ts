import { DataTypes, type QueryInterface } from 'sequelize';

/**
 * Personal API tokens: a user's key for their own systems to read the API. Only the token's SHA-256 is
 * stored. A token ends when it expires, when it is revoked (by its owner, an admin, or the account
 * being disabled), and with its owner's account (cascade on delete). Each row also holds its rate
 * limit's window, so that every process on the database counts the token's requests together.
 */
export async function up(queryInterface: QueryInterface): Promise<void> {
  await queryInterface.createTable('api_tokens', {
    id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
    userId: {
      type: DataTypes.INTEGER,
      allowNull: false,
      references: { model: 'users', key: 'id' },
      onDelete: 'CASCADE',
    },
    name: { type: DataTypes.STRING(60), allowNull: false },
    /** `fp_` and the first 8 characters of the random part, for the list. */
    prefix: { type: DataTypes.STRING(11), allowNull: false },
    /** SHA-256 of the token, hex. */
    tokenHash: { type: DataTypes.STRING(64), allowNull: false, unique: true },
    createdAt: { type: DataTypes.DATE, allowNull: false },
    expiresAt: { type: DataTypes.DATE, allowNull: false },
    revokedAt: { type: DataTypes.DATE, allowNull: true },
    /** Written when a rate window starts, so at most once a minute. */
    lastUsedAt: { type: DataTypes.DATE, allowNull: true },
    /** Epoch milliseconds of the current rate window's first request (0: none yet). */
    rateWindowStartedAt: { type: DataTypes.BIGINT, allowNull: false, defaultValue: 0 },
    /** Requests counted in that window. */
    rateWindowRequests: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
  });
  await queryInterface.addIndex('api_tokens', ['userId']);
}

export async function down(queryInterface: QueryInterface): Promise<void> {
  await queryInterface.dropTable('api_tokens');
}
