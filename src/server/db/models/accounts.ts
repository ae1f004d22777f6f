/**
 * The tables of the accounts: users, their sessions, sign-in steps, recovery codes, passkeys,
 * e-mailed tokens and API tokens.
 */
import {
  DataTypes,
  Model,
  type CreationOptional,
  type ForeignKey,
  type InferAttributes,
  type InferCreationAttributes,
  type Sequelize,
} from 'sequelize';
import { type Role } from '~/shared/constants';
import { type Locale } from '~/shared/locale';

export type AccountTokenPurpose = 'password-reset' | 'invitation';

export function defineAccountModels(sequelize: Sequelize) {
  class User extends Model<InferAttributes<User>, InferCreationAttributes<User>> {
    declare id: CreationOptional<number>;
    declare username: string;
    declare passwordHash: string;
    declare fullName: string | null;
    declare email: string | null;
    declare role: Role;
    declare isActive: CreationOptional<boolean>;
    declare lastLogin: Date | null;
    declare locale: CreationOptional<Locale | null>;
    declare statusEmails: CreationOptional<boolean>;
    /** Created by invitation and not yet accepted: cannot sign in until a password is chosen. */
    declare invited: CreationOptional<boolean>;
    /** The TOTP secret, AES-256-GCM ciphertext; set at setup, in force once `twoFactorEnabledAt` is. */
    declare twoFactorSecret: CreationOptional<string | null>;
    declare twoFactorEnabledAt: CreationOptional<Date | null>;
    /** The last TOTP time step accepted: a code works once. */
    declare twoFactorLastStep: CreationOptional<number | null>;
    declare createdAt: CreationOptional<Date>;
    declare updatedAt: CreationOptional<Date>;
  }

  User.init(
    {
      id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
      username: { type: DataTypes.STRING(30), allowNull: false, unique: true },
      passwordHash: { type: DataTypes.STRING(100), allowNull: false },
      fullName: { type: DataTypes.STRING(100), allowNull: true },
      email: { type: DataTypes.STRING(254), allowNull: true },
      role: { type: DataTypes.STRING(20), allowNull: false },
      isActive: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: true },
      lastLogin: { type: DataTypes.DATE, allowNull: true },
      locale: { type: DataTypes.STRING(10), allowNull: true },
      statusEmails: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
      invited: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
      twoFactorSecret: { type: DataTypes.TEXT, allowNull: true },
      twoFactorEnabledAt: { type: DataTypes.DATE, allowNull: true },
      twoFactorLastStep: { type: DataTypes.BIGINT, allowNull: true },
      createdAt: DataTypes.DATE,
      updatedAt: DataTypes.DATE,
    },
    { sequelize, tableName: 'users' },
  );

  class Session extends Model<InferAttributes<Session>, InferCreationAttributes<Session>> {
    /** SHA-256 of the cookie's token, hex: the token itself is never stored. */
    declare id: string;
    declare userId: ForeignKey<User['id']>;
    declare createdAt: CreationOptional<Date>;
    declare lastSeenAt: Date;
    declare expiresAt: Date;
  }

  Session.init(
    {
      id: { type: DataTypes.STRING(64), primaryKey: true },
      createdAt: DataTypes.DATE,
      lastSeenAt: { type: DataTypes.DATE, allowNull: false },
      expiresAt: { type: DataTypes.DATE, allowNull: false },
    },
    { sequelize, tableName: 'sessions', updatedAt: false },
  );

  User.hasMany(Session, { foreignKey: { name: 'userId', allowNull: false }, onDelete: 'CASCADE' });
  Session.belongsTo(User, {
    foreignKey: { name: 'userId', allowNull: false },
    onDelete: 'CASCADE',
  });

  /** A single-use token sent by e-mail: a password reset or an invitation (migration 0018). */
  class AccountToken extends Model<
    InferAttributes<AccountToken>,
    InferCreationAttributes<AccountToken>
  > {
    declare id: CreationOptional<number>;
    declare userId: number;
    declare purpose: AccountTokenPurpose;
    /** SHA-256 of the token, hex: the token itself is never stored. */
    declare tokenHash: string;
    declare expiresAt: Date;
    /** Used, replaced by a newer token or revoked. */
    declare endedAt: CreationOptional<Date | null>;
    declare createdAt: Date;
  }

  AccountToken.init(
    {
      id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
      userId: { type: DataTypes.INTEGER, allowNull: false },
      purpose: { type: DataTypes.STRING(20), allowNull: false },
      tokenHash: { type: DataTypes.STRING(64), allowNull: false, unique: true },
      expiresAt: { type: DataTypes.DATE, allowNull: false },
      endedAt: { type: DataTypes.DATE, allowNull: true },
      createdAt: { type: DataTypes.DATE, allowNull: false },
    },
    { sequelize, tableName: 'account_tokens', updatedAt: false, createdAt: false },
  );

  /** A two-factor recovery code, hashed; each works once (migration 0018). */
  class RecoveryCode extends Model<
    InferAttributes<RecoveryCode>,
    InferCreationAttributes<RecoveryCode>
  > {
    declare id: CreationOptional<number>;
    declare userId: number;
    /** HMAC of the code's SHA-256 once `keyed` (migration 0026); before that the SHA-256 alone. */
    declare codeHash: string;
    declare keyed: CreationOptional<boolean>;
    declare usedAt: CreationOptional<Date | null>;
  }

  RecoveryCode.init(
    {
      id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
      userId: { type: DataTypes.INTEGER, allowNull: false },
      codeHash: { type: DataTypes.STRING(64), allowNull: false },
      keyed: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
      usedAt: { type: DataTypes.DATE, allowNull: true },
    },
    { sequelize, tableName: 'recovery_codes', timestamps: false },
  );

  /** A sign-in whose password was right, waiting for its second step (migration 0026). */
  class PendingSignIn extends Model<
    InferAttributes<PendingSignIn>,
    InferCreationAttributes<PendingSignIn>
  > {
    declare id: CreationOptional<number>;
    declare userId: number;
    /** SHA-256 of the cookie's token, hex: the token itself is never stored. */
    declare tokenHash: string;
    declare codesTried: CreationOptional<number>;
    declare expiresAt: Date;
  }

  PendingSignIn.init(
    {
      id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
      userId: { type: DataTypes.INTEGER, allowNull: false },
      tokenHash: { type: DataTypes.STRING(64), allowNull: false, unique: true },
      codesTried: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
      expiresAt: { type: DataTypes.DATE, allowNull: false },
    },
    { sequelize, tableName: 'pending_sign_ins', timestamps: false },
  );

  /** A user's passkey, a WebAuthn credential (migration 0030). */
  class Passkey extends Model<InferAttributes<Passkey>, InferCreationAttributes<Passkey>> {
    declare id: CreationOptional<number>;
    declare userId: number;
    /** base64url, as every assertion names it. */
    declare credentialId: string;
    /** The COSE public key, base64url. */
    declare publicKey: string;
    declare counter: CreationOptional<number>;
    /** The WebAuthn user handle, base64url: one per user. */
    declare userHandle: string;
    /** Comma-separated, as the browser reported them. */
    declare transports: string | null;
    declare deviceType: string;
    declare backedUp: CreationOptional<boolean>;
    declare name: string;
    declare createdAt: Date;
    declare lastUsedAt: CreationOptional<Date | null>;
  }

  Passkey.init(
    {
      id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
      userId: { type: DataTypes.INTEGER, allowNull: false },
      credentialId: { type: DataTypes.STRING(1400), allowNull: false, unique: true },
      publicKey: { type: DataTypes.TEXT, allowNull: false },
      counter: { type: DataTypes.BIGINT, allowNull: false, defaultValue: 0 },
      userHandle: { type: DataTypes.STRING(100), allowNull: false },
      transports: { type: DataTypes.STRING(200), allowNull: true },
      deviceType: { type: DataTypes.STRING(20), allowNull: false },
      backedUp: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
      name: { type: DataTypes.STRING(60), allowNull: false },
      createdAt: { type: DataTypes.DATE, allowNull: false },
      lastUsedAt: { type: DataTypes.DATE, allowNull: true },
    },
    { sequelize, tableName: 'passkeys', updatedAt: false, createdAt: false },
  );

  /** A passkey ceremony's challenge, held for the browser that asked (migration 0030). */
  class PasskeyChallenge extends Model<
    InferAttributes<PasskeyChallenge>,
    InferCreationAttributes<PasskeyChallenge>
  > {
    declare id: CreationOptional<number>;
    /** SHA-256 of the cookie's token, hex: the token itself is never stored. */
    declare tokenHash: string;
    declare purpose: 'registration' | 'sign-in';
    declare userId: number | null;
    declare challenge: string;
    /** The user handle a registration's options carried, base64url. */
    declare userHandle: string | null;
    declare expiresAt: Date;
  }

  PasskeyChallenge.init(
    {
      id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
      tokenHash: { type: DataTypes.STRING(64), allowNull: false, unique: true },
      purpose: { type: DataTypes.STRING(20), allowNull: false },
      userId: { type: DataTypes.INTEGER, allowNull: true },
      challenge: { type: DataTypes.STRING(100), allowNull: false },
      userHandle: { type: DataTypes.STRING(100), allowNull: true },
      expiresAt: { type: DataTypes.DATE, allowNull: false },
    },
    { sequelize, tableName: 'passkey_challenges', timestamps: false },
  );

  /** A user's personal API token, read-only and in their scope (migration 0023). */
  class ApiToken extends Model<InferAttributes<ApiToken>, InferCreationAttributes<ApiToken>> {
    declare id: CreationOptional<number>;
    declare userId: number;
    declare name: string;
    /** `fp_` and the first characters of the random part: what the list shows. */
    declare prefix: string;
    /** SHA-256 of the token, hex: the token itself is never stored. */
    declare tokenHash: string;
    declare createdAt: Date;
    declare expiresAt: Date;
    declare revokedAt: CreationOptional<Date | null>;
    declare lastUsedAt: CreationOptional<Date | null>;
    /** The rate limit's window: its start (epoch ms) and the requests counted in it. */
    declare rateWindowStartedAt: CreationOptional<number>;
    declare rateWindowRequests: CreationOptional<number>;
  }

  ApiToken.init(
    {
      id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
      userId: { type: DataTypes.INTEGER, allowNull: false },
      name: { type: DataTypes.STRING(60), allowNull: false },
      prefix: { type: DataTypes.STRING(11), allowNull: false },
      tokenHash: { type: DataTypes.STRING(64), allowNull: false, unique: true },
      createdAt: { type: DataTypes.DATE, allowNull: false },
      expiresAt: { type: DataTypes.DATE, allowNull: false },
      revokedAt: { type: DataTypes.DATE, allowNull: true },
      lastUsedAt: { type: DataTypes.DATE, allowNull: true },
      rateWindowStartedAt: { type: DataTypes.BIGINT, allowNull: false, defaultValue: 0 },
      rateWindowRequests: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
    },
    { sequelize, tableName: 'api_tokens', updatedAt: false, createdAt: false },
  );

  return {
    User,
    Session,
    AccountToken,
    RecoveryCode,
    PendingSignIn,
    Passkey,
    PasskeyChallenge,
    ApiToken,
  };
}

export type AccountModels = ReturnType<typeof defineAccountModels>;
