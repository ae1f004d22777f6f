import { DataTypes, type QueryInterface } from 'sequelize';

/**
 * Accounts that look after themselves: single-use tokens sent by e-mail (password resets and
 * invitations, stored as hashes), an invited user's state, two-factor sign-in (the secret encrypted,
 * the last time step used, hashed recovery codes), and the audit trail of admin actions.
 */
export async function up(queryInterface: QueryInterface): Promise<void> {
  await queryInterface.addColumn('users', 'invited', {
    type: DataTypes.BOOLEAN,
    allowNull: false,
    defaultValue: false,
  });
  await queryInterface.addColumn('users', 'twoFactorSecret', {
    type: DataTypes.TEXT,
    allowNull: true,
  });
  await queryInterface.addColumn('users', 'twoFactorEnabledAt', {
    type: DataTypes.DATE,
    allowNull: true,
  });
  await queryInterface.addColumn('users', 'twoFactorLastStep', {
    type: DataTypes.BIGINT,
    allowNull: true,
  });

  await queryInterface.createTable('account_tokens', {
    id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
    userId: {
      type: DataTypes.INTEGER,
      allowNull: false,
      references: { model: 'users', key: 'id' },
      onDelete: 'CASCADE',
    },
    purpose: { type: DataTypes.STRING(20), allowNull: false },
    /** SHA-256 of the token, hex. */
    tokenHash: { type: DataTypes.STRING(64), allowNull: false, unique: true },
    expiresAt: { type: DataTypes.DATE, allowNull: false },
    /** Used, replaced by a newer one or revoked: no longer valid. */
    endedAt: { type: DataTypes.DATE, allowNull: true },
    createdAt: { type: DataTypes.DATE, allowNull: false },
  });
  await queryInterface.addIndex('account_tokens', ['userId', 'purpose', 'createdAt']);

  await queryInterface.createTable('recovery_codes', {
    id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
    userId: {
      type: DataTypes.INTEGER,
      allowNull: false,
      references: { model: 'users', key: 'id' },
      onDelete: 'CASCADE',
    },
    /** SHA-256 of the code, hex. */
    codeHash: { type: DataTypes.STRING(64), allowNull: false },
    usedAt: { type: DataTypes.DATE, allowNull: true },
  });
  await queryInterface.addIndex('recovery_codes', ['userId']);

  await queryInterface.createTable('audit_entries', {
    id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
    at: { type: DataTypes.DATE, allowNull: false },
    /** Null when nobody was signed in (a failed sign-in) or the account is gone. */
    actorId: { type: DataTypes.INTEGER, allowNull: true },
    /** The actor's username at the time: the entry outlives the account. */
    actorName: { type: DataTypes.STRING(128), allowNull: false },
    action: { type: DataTypes.STRING(60), allowNull: false },
    target: { type: DataTypes.STRING(200), allowNull: true },
    clientAddress: { type: DataTypes.STRING(64), allowNull: true },
    detail: { type: DataTypes.STRING(500), allowNull: true },
  });
  await queryInterface.addIndex('audit_entries', ['at']);
  await queryInterface.addIndex('audit_entries', ['actorId', 'at']);
  await queryInterface.addIndex('audit_entries', ['action', 'at']);
}

export async function down(queryInterface: QueryInterface): Promise<void> {
  await queryInterface.dropTable('audit_entries');
  await queryInterface.dropTable('recovery_codes');
  await queryInterface.dropTable('account_tokens');
  await queryInterface.removeColumn('users', 'twoFactorLastStep');
  await queryInterface.removeColumn('users', 'twoFactorEnabledAt');
  await queryInterface.removeColumn('users', 'twoFactorSecret');
  await queryInterface.removeColumn('users', 'invited');
}
