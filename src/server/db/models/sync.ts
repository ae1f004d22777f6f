/** The tables of the connection to the provider: OAuth2 tokens and authorizations, Magaya's API user and its ids. */
import {
  DataTypes,
  Model,
  type CreationOptional,
  type InferAttributes,
  type InferCreationAttributes,
  type Sequelize,
} from 'sequelize';

export function defineSyncModels(sequelize: Sequelize) {
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

  return {
    ProviderTokenRecord,
    OAuthAuthorization,
    MagayaReceiptId,
    MagayaConsigneeId,
    MagayaConnectionRecord,
  };
}

export type SyncModels = ReturnType<typeof defineSyncModels>;
