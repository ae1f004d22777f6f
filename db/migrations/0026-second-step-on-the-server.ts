import { DataTypes, type QueryInterface } from 'sequelize';

/**
 * A sign-in waiting for its second step is held here, not only in its cookie: the cookie carries a
 * random token whose SHA-256 names the row, the row counts the codes tried, and finishing the sign-in
 * deletes it, so the cookie works once. Rows are deleted with their user.
 *
 * Recovery codes become keyed hashes: `keyed` marks a row whose `codeHash` is an HMAC (with a key of
 * the app secret) of the unkeyed SHA-256 kept so far. The portal converts the unkeyed rows at start-up,
 * as this migration has no key.
 */
export async function up(queryInterface: QueryInterface): Promise<void> {
  await queryInterface.createTable('pending_sign_ins', {
    id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
    userId: {
      type: DataTypes.INTEGER,
      allowNull: false,
      references: { model: 'users', key: 'id' },
      onDelete: 'CASCADE',
    },
    /** SHA-256 of the cookie's token, hex. */
    tokenHash: { type: DataTypes.STRING(64), allowNull: false, unique: true },
    /** Codes tried on this sign-in, right or wrong. */
    codesTried: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
    expiresAt: { type: DataTypes.DATE, allowNull: false },
  });
  await queryInterface.addIndex('pending_sign_ins', ['expiresAt']);
  await queryInterface.addColumn('recovery_codes', 'keyed', {
    type: DataTypes.BOOLEAN,
    allowNull: false,
    defaultValue: false,
  });
}

export async function down(queryInterface: QueryInterface): Promise<void> {
  await queryInterface.removeColumn('recovery_codes', 'keyed');
  await queryInterface.dropTable('pending_sign_ins');
}
