/** The tables of the outbox: e-mails and jobs for other systems. */
import {
  DataTypes,
  Model,
  type CreationOptional,
  type InferAttributes,
  type InferCreationAttributes,
  type Sequelize,
} from 'sequelize';

export function defineOutboxModels(sequelize: Sequelize) {
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

  return { OutboxMessage, OutboxJob };
}

export type OutboxModels = ReturnType<typeof defineOutboxModels>;
