/**
 * Sequelize models, defined once per database connection (a model class belongs to one Sequelize
 * instance). Columns mirror the migrations in db/migrations; tests/in-process/database/migrations.test.ts
 * compares the two.
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
import { CARD_OPACITY_DEFAULT, type Role } from '~/shared/constants';
import type { AttachmentKind } from '~/shared/attachments';
import type { Locale } from '~/shared/locale';
import type { WebhookDisabledReason } from '~/shared/webhooks';

export type BrandingImageKind = 'logo' | 'background';
export type AccountTokenPurpose = 'password-reset' | 'invitation';
/**
 * How a pre-alert came to its receipt: its package arrived (the sync, or it was made after), or an
 * admin linked them.
 */
export type PrealertMatchedBy = 'arrival' | 'admin';

/** The models of one database connection. */
export function defineModels(sequelize: Sequelize) {
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

  /** Consignees as imported from the provider; the id is the provider's. */
  class Consignee extends Model<InferAttributes<Consignee>, InferCreationAttributes<Consignee>> {
    declare id: number;
    declare name: string;
    declare createdAt: CreationOptional<Date>;
    declare updatedAt: CreationOptional<Date>;
  }

  Consignee.init(
    {
      id: { type: DataTypes.INTEGER, primaryKey: true },
      name: { type: DataTypes.STRING(200), allowNull: false },
      createdAt: DataTypes.DATE,
      updatedAt: DataTypes.DATE,
    },
    { sequelize, tableName: 'consignees' },
  );

  /** Which viewer sees which consignee's receipts. */
  class ConsigneeAssignment extends Model<
    InferAttributes<ConsigneeAssignment>,
    InferCreationAttributes<ConsigneeAssignment>
  > {
    declare userId: number;
    declare consigneeId: number;
    declare createdAt: CreationOptional<Date>;
  }

  ConsigneeAssignment.init(
    {
      userId: { type: DataTypes.INTEGER, primaryKey: true },
      consigneeId: { type: DataTypes.INTEGER, primaryKey: true },
      createdAt: DataTypes.DATE,
    },
    { sequelize, tableName: 'consignee_assignments', updatedAt: false },
  );

  User.hasMany(ConsigneeAssignment, { foreignKey: 'userId', onDelete: 'CASCADE' });
  Consignee.hasMany(ConsigneeAssignment, { foreignKey: 'consigneeId', onDelete: 'CASCADE' });
  ConsigneeAssignment.belongsTo(User, { foreignKey: 'userId' });
  ConsigneeAssignment.belongsTo(Consignee, { foreignKey: 'consigneeId' });

  /** The mirror of the provider's receipts; the id is the provider's. */
  class ReceiptRecord extends Model<
    InferAttributes<ReceiptRecord>,
    InferCreationAttributes<ReceiptRecord>
  > {
    declare id: number;
    declare number: string;
    declare receivedDate: Date | null;
    declare shipperName: string;
    declare consigneeId: number | null;
    declare consigneeName: string;
    declare pieces: number;
    declare totalWeightValue: number;
    declare totalVolumeValue: number;
    declare destination: string;
    declare status: string;
    declare modeOfTransportation: string;
    declare originName: string;
    /** Sort keys of the text columns (src/shared/sort-key.ts): what the list orders by. */
    declare numberSort: string;
    declare shipperNameSort: string;
    declare consigneeNameSort: string;
    declare statusSort: string;
    declare destinationSort: string;
    declare modeOfTransportationSort: string;
    declare originNameSort: string;
    /** Receipt number, shipper and consignee in lower case: what the general search matches. */
    declare searchText: string;
    declare providerUpdatedAt: Date;
  }

  ReceiptRecord.init(
    {
      id: { type: DataTypes.INTEGER, primaryKey: true },
      number: { type: DataTypes.STRING(40), allowNull: false },
      receivedDate: { type: DataTypes.DATE, allowNull: true },
      shipperName: { type: DataTypes.STRING(200), allowNull: false },
      consigneeId: { type: DataTypes.INTEGER, allowNull: true },
      consigneeName: { type: DataTypes.STRING(200), allowNull: false },
      pieces: { type: DataTypes.INTEGER, allowNull: false },
      totalWeightValue: { type: DataTypes.DOUBLE, allowNull: false },
      totalVolumeValue: { type: DataTypes.DOUBLE, allowNull: false },
      destination: { type: DataTypes.STRING(200), allowNull: false },
      status: { type: DataTypes.STRING(100), allowNull: false },
      modeOfTransportation: { type: DataTypes.STRING(100), allowNull: false },
      originName: { type: DataTypes.STRING(200), allowNull: false },
      numberSort: { type: DataTypes.TEXT, allowNull: false },
      shipperNameSort: { type: DataTypes.TEXT, allowNull: false },
      consigneeNameSort: { type: DataTypes.TEXT, allowNull: false },
      statusSort: { type: DataTypes.TEXT, allowNull: false },
      destinationSort: { type: DataTypes.TEXT, allowNull: false },
      modeOfTransportationSort: { type: DataTypes.TEXT, allowNull: false },
      originNameSort: { type: DataTypes.TEXT, allowNull: false },
      searchText: { type: DataTypes.STRING(700), allowNull: false },
      providerUpdatedAt: { type: DataTypes.DATE, allowNull: false },
    },
    { sequelize, tableName: 'receipts', timestamps: false },
  );

  /** A receipt's commodities (the provider's `commodities`, docs/provider-api.md §2), in the provider's order. */
  class PackageRecord extends Model<
    InferAttributes<PackageRecord>,
    InferCreationAttributes<PackageRecord>
  > {
    declare id: CreationOptional<number>;
    declare receiptId: number;
    declare position: number;
    declare description: string;
    declare trackingNumber: string | null;
    /** The tracking number upper-cased without spaces: what the tracking filter matches. */
    declare trackingKey: string | null;
    declare pieces: number;
    declare totalWeightValue: number;
    declare totalVolumeValue: number;
  }

  PackageRecord.init(
    {
      id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
      receiptId: { type: DataTypes.INTEGER, allowNull: false },
      position: { type: DataTypes.INTEGER, allowNull: false },
      description: { type: DataTypes.STRING(300), allowNull: false },
      trackingNumber: { type: DataTypes.STRING(64), allowNull: true },
      trackingKey: { type: DataTypes.STRING(64), allowNull: true },
      pieces: { type: DataTypes.INTEGER, allowNull: false },
      totalWeightValue: { type: DataTypes.DOUBLE, allowNull: false },
      totalVolumeValue: { type: DataTypes.DOUBLE, allowNull: false },
    },
    { sequelize, tableName: 'packages', timestamps: false },
  );

  ReceiptRecord.hasMany(PackageRecord, { foreignKey: 'receiptId', onDelete: 'CASCADE' });
  PackageRecord.belongsTo(ReceiptRecord, { foreignKey: 'receiptId' });

  /** One status a receipt took, as the mirror saw it (migration 0009). */
  class ReceiptStatusChange extends Model<
    InferAttributes<ReceiptStatusChange>,
    InferCreationAttributes<ReceiptStatusChange>
  > {
    declare id: CreationOptional<number>;
    declare receiptId: number;
    declare status: string;
    declare version: Date;
    declare at: Date;
  }

  ReceiptStatusChange.init(
    {
      id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
      receiptId: { type: DataTypes.INTEGER, allowNull: false },
      status: { type: DataTypes.STRING(100), allowNull: false },
      version: { type: DataTypes.DATE, allowNull: false },
      at: { type: DataTypes.DATE, allowNull: false },
    },
    { sequelize, tableName: 'receipt_status_changes', timestamps: false },
  );

  /** An e-mail waiting to be sent, or sent, or given up on (migration 0010). */
  class OutboxMessage extends Model<
    InferAttributes<OutboxMessage>,
    InferCreationAttributes<OutboxMessage>
  > {
    declare id: CreationOptional<number>;
    declare userId: number | null;
    declare recipient: string;
    declare subject: string;
    declare textBody: string;
    declare htmlBody: string;
    declare unsubscribeUrl: string | null;
    declare attempts: CreationOptional<number>;
    declare nextAttemptAt: Date;
    declare claimedUntil: CreationOptional<Date | null>;
    declare lastError: CreationOptional<string | null>;
    declare sentAt: CreationOptional<Date | null>;
    declare failedAt: CreationOptional<Date | null>;
    declare createdAt: CreationOptional<Date>;
  }

  OutboxMessage.init(
    {
      id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
      userId: { type: DataTypes.INTEGER, allowNull: true },
      recipient: { type: DataTypes.STRING(254), allowNull: false },
      subject: { type: DataTypes.STRING(300), allowNull: false },
      textBody: { type: DataTypes.TEXT, allowNull: false },
      htmlBody: { type: DataTypes.TEXT, allowNull: false },
      unsubscribeUrl: { type: DataTypes.STRING(500), allowNull: true },
      attempts: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
      nextAttemptAt: { type: DataTypes.DATE, allowNull: false },
      claimedUntil: { type: DataTypes.DATE, allowNull: true },
      lastError: { type: DataTypes.TEXT, allowNull: true },
      sentAt: { type: DataTypes.DATE, allowNull: true },
      failedAt: { type: DataTypes.DATE, allowNull: true },
      createdAt: DataTypes.DATE,
    },
    { sequelize, tableName: 'outbox', updatedAt: false },
  );

  /** The one row of provider credentials; token values are AES-256-GCM ciphertext. */
  class ProviderTokenRecord extends Model<
    InferAttributes<ProviderTokenRecord>,
    InferCreationAttributes<ProviderTokenRecord>
  > {
    declare id: number;
    declare accessToken: string | null;
    declare refreshToken: string | null;
    declare accessTokenExpiresAt: Date | null;
    declare refreshTokenExpiresAt: Date | null;
    declare source: string | null;
    /** Set when the provider refused the refresh token: only new tokens clear it. */
    declare reconnectRequiredAt: CreationOptional<Date | null>;
    declare reconnectReason: CreationOptional<string | null>;
    /** While in the future, one process is refreshing the tokens; the others wait for its result. */
    declare refreshLeaseUntil: CreationOptional<Date | null>;
    declare updatedAt: CreationOptional<Date>;
  }

  ProviderTokenRecord.init(
    {
      id: { type: DataTypes.INTEGER, primaryKey: true },
      accessToken: { type: DataTypes.TEXT, allowNull: true },
      refreshToken: { type: DataTypes.TEXT, allowNull: true },
      accessTokenExpiresAt: { type: DataTypes.DATE, allowNull: true },
      refreshTokenExpiresAt: { type: DataTypes.DATE, allowNull: true },
      source: { type: DataTypes.STRING(20), allowNull: true },
      reconnectRequiredAt: { type: DataTypes.DATE, allowNull: true },
      reconnectReason: { type: DataTypes.TEXT, allowNull: true },
      refreshLeaseUntil: { type: DataTypes.DATE, allowNull: true },
      updatedAt: DataTypes.DATE,
    },
    { sequelize, tableName: 'provider_tokens', createdAt: false },
  );

  /**
   * An OAuth2 authorization an admin started: the id is the SHA-256 of its `state`, the PKCE verifier is
   * AES-256-GCM ciphertext. Used once, by the session that started it, within its lifetime.
   */
  class OAuthAuthorization extends Model<
    InferAttributes<OAuthAuthorization>,
    InferCreationAttributes<OAuthAuthorization>
  > {
    declare id: string;
    declare sessionId: string;
    declare codeVerifier: string;
    declare expiresAt: Date;
    declare createdAt: CreationOptional<Date>;
  }

  OAuthAuthorization.init(
    {
      id: { type: DataTypes.STRING(64), primaryKey: true },
      sessionId: { type: DataTypes.STRING(64), allowNull: false },
      codeVerifier: { type: DataTypes.TEXT, allowNull: false },
      expiresAt: { type: DataTypes.DATE, allowNull: false },
      createdAt: DataTypes.DATE,
    },
    { sequelize, tableName: 'oauth_authorizations', updatedAt: false },
  );

  /** The one row of mirror bookkeeping. */
  class SyncState extends Model<InferAttributes<SyncState>, InferCreationAttributes<SyncState>> {
    declare id: number;
    declare cursor: string | null;
    declare lastSuccessAt: Date | null;
    /** Receipts the last successful sync wrote (new or changed) and removed. */
    declare lastWritten: number | null;
    declare lastDeleted: number | null;
    declare lastFullSyncAt: Date | null;
    declare lastErrorAt: Date | null;
    declare lastError: string | null;
    declare lastConsigneeImportAt: Date | null;
    /** When the sandbox demo customer was made: it is made once, never again after a deletion. */
    declare demoUsersCreatedAt: Date | null;
    /** Counts the syncs that changed the mirror; each process follows it to know when its caches are stale. */
    declare mirrorVersion: CreationOptional<number>;
  }

  SyncState.init(
    {
      id: { type: DataTypes.INTEGER, primaryKey: true },
      cursor: { type: DataTypes.STRING(200), allowNull: true },
      lastSuccessAt: { type: DataTypes.DATE, allowNull: true },
      lastWritten: { type: DataTypes.INTEGER, allowNull: true },
      lastDeleted: { type: DataTypes.INTEGER, allowNull: true },
      lastFullSyncAt: { type: DataTypes.DATE, allowNull: true },
      lastErrorAt: { type: DataTypes.DATE, allowNull: true },
      lastError: { type: DataTypes.TEXT, allowNull: true },
      lastConsigneeImportAt: { type: DataTypes.DATE, allowNull: true },
      demoUsersCreatedAt: { type: DataTypes.DATE, allowNull: true },
      mirrorVersion: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
    },
    { sequelize, tableName: 'sync_state', timestamps: false },
  );

  /** The uploaded logo or background: what the file is; its bytes are in UPLOADS_DIR under fileName. */
  class BrandingImage extends Model<
    InferAttributes<BrandingImage>,
    InferCreationAttributes<BrandingImage>
  > {
    declare kind: BrandingImageKind;
    /** Chosen by the server: random, with the extension of the detected format. */
    declare fileName: string;
    declare originalName: string;
    declare contentType: string;
    declare size: number;
    declare uploadedAt: Date;
    /** The sizes and formats pages send (JSON of src/server/images/variants.ts's ImageVariant[]); null until made. */
    declare variants: string | null;
  }

  BrandingImage.init(
    {
      kind: { type: DataTypes.STRING(20), primaryKey: true },
      fileName: { type: DataTypes.STRING(100), allowNull: false },
      originalName: { type: DataTypes.STRING(255), allowNull: false },
      contentType: { type: DataTypes.STRING(50), allowNull: false },
      size: { type: DataTypes.INTEGER, allowNull: false },
      uploadedAt: { type: DataTypes.DATE, allowNull: false },
      variants: { type: DataTypes.TEXT, allowNull: true },
    },
    { sequelize, tableName: 'branding_images', timestamps: false },
  );

  /** The one row of branding settings. */
  class BrandingSettings extends Model<
    InferAttributes<BrandingSettings>,
    InferCreationAttributes<BrandingSettings>
  > {
    declare id: number;
    declare cardOpacity: CreationOptional<number>;
  }

  BrandingSettings.init(
    {
      id: { type: DataTypes.INTEGER, primaryKey: true },
      cardOpacity: { type: DataTypes.DOUBLE, allowNull: false, defaultValue: CARD_OPACITY_DEFAULT },
    },
    { sequelize, tableName: 'branding_settings', timestamps: false },
  );

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

  /** One admin action or admin sign-in, as the audit trail keeps it (migration 0018). */
  class AuditEntry extends Model<InferAttributes<AuditEntry>, InferCreationAttributes<AuditEntry>> {
    declare id: CreationOptional<number>;
    declare at: Date;
    declare actorId: number | null;
    declare actorName: string;
    declare action: string;
    declare target: string | null;
    declare clientAddress: string | null;
    declare detail: string | null;
  }

  AuditEntry.init(
    {
      id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
      at: { type: DataTypes.DATE, allowNull: false },
      actorId: { type: DataTypes.INTEGER, allowNull: true },
      actorName: { type: DataTypes.STRING(128), allowNull: false },
      action: { type: DataTypes.STRING(60), allowNull: false },
      target: { type: DataTypes.STRING(200), allowNull: true },
      clientAddress: { type: DataTypes.STRING(64), allowNull: true },
      detail: { type: DataTypes.STRING(500), allowNull: true },
    },
    { sequelize, tableName: 'audit_entries', timestamps: false },
  );

  /** A customer's read-only link to one receipt, opened without signing in (migration 0019). */
  class ShareLink extends Model<InferAttributes<ShareLink>, InferCreationAttributes<ShareLink>> {
    declare id: CreationOptional<number>;
    declare userId: number;
    declare receiptId: number;
    /** SHA-256 of the token, hex: the token itself is never stored. */
    declare tokenHash: string;
    declare createdAt: Date;
    declare expiresAt: Date;
    declare revokedAt: CreationOptional<Date | null>;
  }

  ShareLink.init(
    {
      id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
      userId: { type: DataTypes.INTEGER, allowNull: false },
      receiptId: { type: DataTypes.INTEGER, allowNull: false },
      tokenHash: { type: DataTypes.STRING(64), allowNull: false, unique: true },
      createdAt: { type: DataTypes.DATE, allowNull: false },
      expiresAt: { type: DataTypes.DATE, allowNull: false },
      revokedAt: { type: DataTypes.DATE, allowNull: true },
    },
    { sequelize, tableName: 'share_links', updatedAt: false, createdAt: false },
  );

  /** Work for another system, waiting, done or given up on (migration 0020; src/server/services/outbox.ts). */
  class OutboxJob extends Model<InferAttributes<OutboxJob>, InferCreationAttributes<OutboxJob>> {
    declare id: CreationOptional<number>;
    declare kind: string;
    declare payload: string;
    declare attempts: CreationOptional<number>;
    declare nextAttemptAt: Date;
    declare claimedUntil: CreationOptional<Date | null>;
    declare lastError: CreationOptional<string | null>;
    declare doneAt: CreationOptional<Date | null>;
    declare failedAt: CreationOptional<Date | null>;
    declare createdAt: Date;
    /** Jobs sharing a key run one at a time, oldest first (migration 0025); null: no order. */
    declare orderingKey: CreationOptional<string | null>;
  }

  OutboxJob.init(
    {
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
      orderingKey: { type: DataTypes.STRING(120), allowNull: true },
    },
    { sequelize, tableName: 'outbox_jobs', updatedAt: false, createdAt: false },
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

  /**
   * When a receipt's attachment list was fetched from the provider, and for which version of the
   * receipt (migration 0022).
   */
  class ReceiptAttachmentList extends Model<
    InferAttributes<ReceiptAttachmentList>,
    InferCreationAttributes<ReceiptAttachmentList>
  > {
    declare receiptId: number;
    declare receiptVersion: Date;
    declare checkedAt: Date;
  }

  ReceiptAttachmentList.init(
    {
      receiptId: { type: DataTypes.INTEGER, primaryKey: true },
      receiptVersion: { type: DataTypes.DATE, allowNull: false },
      checkedAt: { type: DataTypes.DATE, allowNull: false },
    },
    { sequelize, tableName: 'receipt_attachment_lists', timestamps: false },
  );

  /** A photo or document the provider lists with a receipt; its bytes in UPLOADS_DIR once fetched (migration 0022). */
  class ReceiptAttachment extends Model<
    InferAttributes<ReceiptAttachment>,
    InferCreationAttributes<ReceiptAttachment>
  > {
    declare id: CreationOptional<number>;
    declare receiptId: number;
    declare providerId: string;
    declare position: number;
    declare kind: AttachmentKind;
    declare fileName: string;
    declare contentType: string;
    /** BIGINT: PostgreSQL answers it as text; read it with Number(). */
    declare size: number | string;
    declare providerCreatedAt: Date | null;
    declare storedName: CreationOptional<string | null>;
    declare storedType: CreationOptional<string | null>;
    declare storedSize: CreationOptional<number | string | null>;
    /** JSON of src/server/services/attachments.ts's Previews; null until made. */
    declare previews: CreationOptional<string | null>;
    declare fetchedAt: CreationOptional<Date | null>;
  }

  ReceiptAttachment.init(
    {
      id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
      receiptId: { type: DataTypes.INTEGER, allowNull: false },
      providerId: { type: DataTypes.STRING(200), allowNull: false },
      position: { type: DataTypes.INTEGER, allowNull: false },
      kind: { type: DataTypes.STRING(10), allowNull: false },
      fileName: { type: DataTypes.STRING(255), allowNull: false },
      contentType: { type: DataTypes.STRING(100), allowNull: false },
      size: { type: DataTypes.BIGINT, allowNull: false },
      providerCreatedAt: { type: DataTypes.DATE, allowNull: true },
      storedName: { type: DataTypes.STRING(100), allowNull: true },
      storedType: { type: DataTypes.STRING(100), allowNull: true },
      storedSize: { type: DataTypes.BIGINT, allowNull: true },
      previews: { type: DataTypes.TEXT, allowNull: true },
      fetchedAt: { type: DataTypes.DATE, allowNull: true },
    },
    { sequelize, tableName: 'receipt_attachments', timestamps: false },
  );

  /** A user's webhook endpoint (migration 0024; src/server/services/webhooks.ts). */
  class WebhookEndpoint extends Model<
    InferAttributes<WebhookEndpoint>,
    InferCreationAttributes<WebhookEndpoint>
  > {
    declare id: CreationOptional<number>;
    declare userId: number;
    declare url: string;
    /** The event types it takes, comma-separated. */
    declare events: string;
    /** The `whsec_…` secret, AES-256-GCM ciphertext. */
    declare secret: string;
    declare enabled: CreationOptional<boolean>;
    declare disabledReason: CreationOptional<WebhookDisabledReason | null>;
    declare disabledAt: CreationOptional<Date | null>;
    declare failingSince: CreationOptional<Date | null>;
    declare lastSuccessAt: CreationOptional<Date | null>;
    declare createdAt: Date;
  }

  WebhookEndpoint.init(
    {
      id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
      userId: { type: DataTypes.INTEGER, allowNull: false },
      url: { type: DataTypes.STRING(2000), allowNull: false },
      events: { type: DataTypes.STRING(200), allowNull: false },
      secret: { type: DataTypes.TEXT, allowNull: false },
      enabled: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: true },
      disabledReason: { type: DataTypes.STRING(20), allowNull: true },
      disabledAt: { type: DataTypes.DATE, allowNull: true },
      failingSince: { type: DataTypes.DATE, allowNull: true },
      lastSuccessAt: { type: DataTypes.DATE, allowNull: true },
      createdAt: { type: DataTypes.DATE, allowNull: false },
    },
    // Written by the portal's clock, which the rules compare them with.
    { sequelize, tableName: 'webhook_endpoints', updatedAt: false, createdAt: false },
  );

  /** One attempt to deliver a webhook message (migration 0024); the last 100 of each endpoint are kept. */
  class WebhookDelivery extends Model<
    InferAttributes<WebhookDelivery>,
    InferCreationAttributes<WebhookDelivery>
  > {
    declare id: CreationOptional<number>;
    declare endpointId: number;
    declare messageId: string;
    declare eventType: string;
    declare attempt: number;
    declare at: Date;
    declare durationMs: number;
    declare succeeded: boolean;
    declare statusCode: number | null;
    declare error: string | null;
    declare answer: string | null;
  }

  WebhookDelivery.init(
    {
      id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
      endpointId: { type: DataTypes.INTEGER, allowNull: false },
      messageId: { type: DataTypes.STRING(64), allowNull: false },
      eventType: { type: DataTypes.STRING(40), allowNull: false },
      attempt: { type: DataTypes.INTEGER, allowNull: false },
      at: { type: DataTypes.DATE, allowNull: false },
      durationMs: { type: DataTypes.INTEGER, allowNull: false },
      succeeded: { type: DataTypes.BOOLEAN, allowNull: false },
      statusCode: { type: DataTypes.INTEGER, allowNull: true },
      error: { type: DataTypes.STRING(500), allowNull: true },
      answer: { type: DataTypes.TEXT, allowNull: true },
    },
    { sequelize, tableName: 'webhook_deliveries', timestamps: false },
  );

  /** A customer's announcement of a package on its way, linked to its receipt once it arrives (migration 0021). */
  class Prealert extends Model<InferAttributes<Prealert>, InferCreationAttributes<Prealert>> {
    declare id: CreationOptional<number>;
    declare userId: number | null;
    declare consigneeId: number;
    declare carrier: string;
    /** Upper case, without spaces or dashes (normalizeTrackingNumber in src/shared/prealerts.ts). */
    declare trackingNumber: string;
    declare shipper: string;
    declare description: string;
    declare declaredValueCents: number;
    /** The invoice's file in UPLOADS_DIR/prealerts; null without one. */
    declare invoiceFileName: string | null;
    declare invoiceOriginalName: string | null;
    declare invoiceContentType: string | null;
    declare invoiceSize: number | null;
    declare receiptId: CreationOptional<number | null>;
    declare matchedAt: CreationOptional<Date | null>;
    declare matchedBy: CreationOptional<PrealertMatchedBy | null>;
    declare declinedReceiptId: CreationOptional<number | null>;
    declare createdAt: Date;
    declare updatedAt: Date;
  }

  Prealert.init(
    {
      id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
      userId: { type: DataTypes.INTEGER, allowNull: true },
      consigneeId: { type: DataTypes.INTEGER, allowNull: false },
      carrier: { type: DataTypes.STRING(20), allowNull: false },
      trackingNumber: { type: DataTypes.STRING(40), allowNull: false },
      shipper: { type: DataTypes.STRING(100), allowNull: false },
      description: { type: DataTypes.STRING(300), allowNull: false },
      declaredValueCents: { type: DataTypes.INTEGER, allowNull: false },
      invoiceFileName: { type: DataTypes.STRING(100), allowNull: true },
      invoiceOriginalName: { type: DataTypes.STRING(255), allowNull: true },
      invoiceContentType: { type: DataTypes.STRING(50), allowNull: true },
      invoiceSize: { type: DataTypes.INTEGER, allowNull: true },
      receiptId: { type: DataTypes.INTEGER, allowNull: true },
      matchedAt: { type: DataTypes.DATE, allowNull: true },
      matchedBy: { type: DataTypes.STRING(20), allowNull: true },
      declinedReceiptId: { type: DataTypes.INTEGER, allowNull: true },
      createdAt: { type: DataTypes.DATE, allowNull: false },
      updatedAt: { type: DataTypes.DATE, allowNull: false },
    },
    // Both times are written by the portal's clock, as everything that compares them.
    { sequelize, tableName: 'prealerts', timestamps: false },
  );

  /** PROVIDER=magaya: the portal's number for a receipt's GUID, and what it last read of it (migration 0028). */
  class MagayaReceiptId extends Model<
    InferAttributes<MagayaReceiptId>,
    InferCreationAttributes<MagayaReceiptId>
  > {
    declare id: number;
    declare guid: string;
    declare digest: string | null;
    declare versionAt: Date | null;
  }

  MagayaReceiptId.init(
    {
      id: { type: DataTypes.INTEGER, primaryKey: true },
      guid: { type: DataTypes.STRING(64), allowNull: false, unique: true },
      digest: { type: DataTypes.STRING(64), allowNull: true },
      versionAt: { type: DataTypes.DATE, allowNull: true },
    },
    { sequelize, tableName: 'magaya_receipts', timestamps: false },
  );

  /** PROVIDER=magaya: the portal's number for a consignee's GUID, with the name its receipts last gave it. */
  class MagayaConsigneeId extends Model<
    InferAttributes<MagayaConsigneeId>,
    InferCreationAttributes<MagayaConsigneeId>
  > {
    declare id: number;
    declare guid: string;
    declare name: string;
  }

  MagayaConsigneeId.init(
    {
      id: { type: DataTypes.INTEGER, primaryKey: true },
      guid: { type: DataTypes.STRING(64), allowNull: false, unique: true },
      name: { type: DataTypes.STRING(200), allowNull: false },
    },
    { sequelize, tableName: 'magaya_consignees', timestamps: false },
  );

  /** PROVIDER=magaya: the API user an admin entered (password encrypted) and how the last session went. */
  class MagayaConnectionRecord extends Model<
    InferAttributes<MagayaConnectionRecord>,
    InferCreationAttributes<MagayaConnectionRecord>
  > {
    declare id: number;
    declare username: CreationOptional<string | null>;
    declare password: CreationOptional<string | null>;
    declare lastSessionAt: CreationOptional<Date | null>;
    declare lastSessionError: CreationOptional<string | null>;
    declare updatedAt: CreationOptional<Date | null>;
  }

  MagayaConnectionRecord.init(
    {
      id: { type: DataTypes.INTEGER, primaryKey: true },
      username: { type: DataTypes.STRING(200), allowNull: true },
      password: { type: DataTypes.TEXT, allowNull: true },
      lastSessionAt: { type: DataTypes.DATE, allowNull: true },
      lastSessionError: { type: DataTypes.STRING(64), allowNull: true },
      updatedAt: { type: DataTypes.DATE, allowNull: true },
    },
    { sequelize, tableName: 'magaya_connection', timestamps: false },
  );

  /**
   * How an imported receipt is known again (PROVIDER=file): its number, its portal id and a
   * fingerprint of what the file said.
   */
  class ImportedReceipt extends Model<
    InferAttributes<ImportedReceipt>,
    InferCreationAttributes<ImportedReceipt>
  > {
    declare number: string;
    declare receiptId: number;
    declare fingerprint: string;
  }

  ImportedReceipt.init(
    {
      number: { type: DataTypes.STRING(40), primaryKey: true },
      receiptId: { type: DataTypes.INTEGER, allowNull: false, unique: true },
      fingerprint: { type: DataTypes.STRING(64), allowNull: false },
    },
    { sequelize, tableName: 'imported_receipts', timestamps: false },
  );

  /** One import of a file: who, which file, when, its counts and its row errors (JSON). */
  class ImportRun extends Model<InferAttributes<ImportRun>, InferCreationAttributes<ImportRun>> {
    declare id: CreationOptional<number>;
    declare fileName: string;
    declare format: string;
    declare via: string;
    declare userId: number | null;
    declare username: string | null;
    declare full: boolean;
    declare created: number;
    declare updated: number;
    declare unchanged: number;
    declare removed: number;
    declare errors: string;
    declare at: Date;
  }

  ImportRun.init(
    {
      id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
      fileName: { type: DataTypes.STRING(255), allowNull: false },
      format: { type: DataTypes.STRING(10), allowNull: false },
      via: { type: DataTypes.STRING(10), allowNull: false },
      userId: { type: DataTypes.INTEGER, allowNull: true },
      username: { type: DataTypes.STRING(100), allowNull: true },
      full: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
      created: { type: DataTypes.INTEGER, allowNull: false },
      updated: { type: DataTypes.INTEGER, allowNull: false },
      unchanged: { type: DataTypes.INTEGER, allowNull: false },
      removed: { type: DataTypes.INTEGER, allowNull: false },
      errors: { type: DataTypes.TEXT, allowNull: false },
      at: { type: DataTypes.DATE, allowNull: false },
    },
    { sequelize, tableName: 'imports', timestamps: false },
  );

  /** An admin's column mapping for one source, by the SHA-256 of its header row. */
  class ImportMapping extends Model<
    InferAttributes<ImportMapping>,
    InferCreationAttributes<ImportMapping>
  > {
    declare signature: string;
    declare mapping: string;
    declare updatedAt: Date;
  }

  ImportMapping.init(
    {
      signature: { type: DataTypes.STRING(64), primaryKey: true },
      mapping: { type: DataTypes.TEXT, allowNull: false },
      updatedAt: { type: DataTypes.DATE, allowNull: false },
    },
    { sequelize, tableName: 'import_mappings', timestamps: false },
  );

  return {
    User,
    Session,
    Consignee,
    ConsigneeAssignment,
    ReceiptRecord,
    PackageRecord,
    ReceiptStatusChange,
    OutboxMessage,
    ProviderTokenRecord,
    OAuthAuthorization,
    SyncState,
    BrandingImage,
    BrandingSettings,
    AccountToken,
    RecoveryCode,
    PendingSignIn,
    Passkey,
    PasskeyChallenge,
    AuditEntry,
    ShareLink,
    OutboxJob,
    ApiToken,
    ReceiptAttachmentList,
    ReceiptAttachment,
    WebhookEndpoint,
    WebhookDelivery,
    Prealert,
    MagayaReceiptId,
    MagayaConsigneeId,
    MagayaConnectionRecord,
    ImportedReceipt,
    ImportRun,
    ImportMapping,
  };
}

export type Models = ReturnType<typeof defineModels>;
export type User = InstanceType<Models['User']>;
export type Session = InstanceType<Models['Session']>;
export type Consignee = InstanceType<Models['Consignee']>;
export type ConsigneeAssignment = InstanceType<Models['ConsigneeAssignment']>;
export type ReceiptRecord = InstanceType<Models['ReceiptRecord']>;
export type PackageRecord = InstanceType<Models['PackageRecord']>;
export type ReceiptStatusChange = InstanceType<Models['ReceiptStatusChange']>;
export type OutboxMessage = InstanceType<Models['OutboxMessage']>;
export type ProviderTokenRecord = InstanceType<Models['ProviderTokenRecord']>;
export type OAuthAuthorization = InstanceType<Models['OAuthAuthorization']>;
export type SyncState = InstanceType<Models['SyncState']>;
export type BrandingImage = InstanceType<Models['BrandingImage']>;
export type BrandingSettings = InstanceType<Models['BrandingSettings']>;
export type AccountToken = InstanceType<Models['AccountToken']>;
export type RecoveryCode = InstanceType<Models['RecoveryCode']>;
export type PendingSignIn = InstanceType<Models['PendingSignIn']>;
export type Passkey = InstanceType<Models['Passkey']>;
export type PasskeyChallenge = InstanceType<Models['PasskeyChallenge']>;
export type AuditEntry = InstanceType<Models['AuditEntry']>;
export type ShareLink = InstanceType<Models['ShareLink']>;
export type OutboxJob = InstanceType<Models['OutboxJob']>;
export type ApiToken = InstanceType<Models['ApiToken']>;
export type ReceiptAttachmentList = InstanceType<Models['ReceiptAttachmentList']>;
export type ReceiptAttachment = InstanceType<Models['ReceiptAttachment']>;
export type WebhookEndpoint = InstanceType<Models['WebhookEndpoint']>;
export type WebhookDelivery = InstanceType<Models['WebhookDelivery']>;
export type Prealert = InstanceType<Models['Prealert']>;
