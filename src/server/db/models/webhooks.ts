/** The tables of webhook endpoints and their deliveries. */
import {
  DataTypes,
  Model,
  type CreationOptional,
  type InferAttributes,
  type InferCreationAttributes,
  type Sequelize,
} from 'sequelize';
import { type WebhookDisabledReason } from '~/shared/webhooks';

export function defineWebhookModels(sequelize: Sequelize) {
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

  return { WebhookEndpoint, WebhookDelivery };
}

export type WebhookModels = ReturnType<typeof defineWebhookModels>;
