/** The tables of consignees and which viewer sees which consignee's receipts. */
import {
  DataTypes,
  Model,
  type CreationOptional,
  type InferAttributes,
  type InferCreationAttributes,
  type Sequelize,
} from 'sequelize';
import type { AccountModels } from './accounts';

/** `User` is the accounts' own: an assignment belongs to a user. */
export function defineConsigneeModels(sequelize: Sequelize, { User }: Pick<AccountModels, 'User'>) {
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

  return { Consignee, ConsigneeAssignment };
}

export type ConsigneeModels = ReturnType<typeof defineConsigneeModels>;
