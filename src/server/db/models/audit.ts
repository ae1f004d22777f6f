/** The tables of the audit trail. */
import {
  DataTypes,
  Model,
  type CreationOptional,
  type InferAttributes,
  type InferCreationAttributes,
  type Sequelize,
} from 'sequelize';

export function defineAuditModels(sequelize: Sequelize) {
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

  return { AuditEntry };
}

export type AuditModels = ReturnType<typeof defineAuditModels>;
