import { DataTypes, type QueryInterface } from 'sequelize';

/**
 * Passkeys (WebAuthn credentials): a user may hold several, each with its public key, its signature
 * counter and a name; they go with their user (cascade on delete).
 *
 * A ceremony's challenge is held on the server: a random token in the asking browser's cookie names
 * the row by its SHA-256, the row holds the challenge, what it is for (registering, for `userId`, or
 * signing in) and when it expires; using it deletes it, so a challenge works once.
 */
export async function up(queryInterface: QueryInterface): Promise<void> {
  await queryInterface.createTable('passkeys', {
    id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
    userId: {
      type: DataTypes.INTEGER,
      allowNull: false,
      references: { model: 'users', key: 'id' },
      onDelete: 'CASCADE',
    },
    /** The credential's ID, base64url, as the authenticator names it in every assertion. */
    credentialId: { type: DataTypes.STRING(1400), allowNull: false, unique: true },
    /** The COSE public key, base64url. */
    publicKey: { type: DataTypes.TEXT, allowNull: false },
    /** The signature counter last seen (0 for authenticators that keep none). */
    counter: { type: DataTypes.BIGINT, allowNull: false, defaultValue: 0 },
    /** The WebAuthn user handle the credential was made for, base64url: one per user. */
    userHandle: { type: DataTypes.STRING(100), allowNull: false },
    /** The transports the browser reported, comma-separated. */
    transports: { type: DataTypes.STRING(200), allowNull: true },
    /** `singleDevice` or `multiDevice` (synced). */
    deviceType: { type: DataTypes.STRING(20), allowNull: false },
    backedUp: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
    name: { type: DataTypes.STRING(60), allowNull: false },
    createdAt: { type: DataTypes.DATE, allowNull: false },
    lastUsedAt: { type: DataTypes.DATE, allowNull: true },
  });
  await queryInterface.addIndex('passkeys', ['userId']);
  await queryInterface.createTable('passkey_challenges', {
    id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
    /** SHA-256 of the cookie's token, hex. */
    tokenHash: { type: DataTypes.STRING(64), allowNull: false, unique: true },
    /** `registration` or `sign-in`. */
    purpose: { type: DataTypes.STRING(20), allowNull: false },
    /** The user registering; none for a sign-in. */
    userId: {
      type: DataTypes.INTEGER,
      allowNull: true,
      references: { model: 'users', key: 'id' },
      onDelete: 'CASCADE',
    },
    challenge: { type: DataTypes.STRING(100), allowNull: false },
    /** The user handle a registration's options carried, base64url, kept with the passkey it makes. */
    userHandle: { type: DataTypes.STRING(100), allowNull: true },
    expiresAt: { type: DataTypes.DATE, allowNull: false },
  });
  await queryInterface.addIndex('passkey_challenges', ['expiresAt']);
}

export async function down(queryInterface: QueryInterface): Promise<void> {
  await queryInterface.dropTable('passkey_challenges');
  await queryInterface.dropTable('passkeys');
}
