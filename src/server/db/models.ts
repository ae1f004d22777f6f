/** Sequelize models. Columns mirror the migrations in db/migrations. */
import {
  DataTypes,
  Model,
  type CreationOptional,
  type ForeignKey,
  type InferAttributes,
  type InferCreationAttributes,
} from 'sequelize';
import type { Role } from '~/shared/constants';
import { sequelize } from './index';

export class User extends Model<InferAttributes<User>, InferCreationAttributes<User>> {
  declare id: CreationOptional<number>;
  declare username: string;
  declare passwordHash: string;
  declare fullName: string | null;
  declare email: string | null;
  declare role: Role;
  declare isActive: CreationOptional<boolean>;
  declare lastLogin: Date | null;
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
    createdAt: DataTypes.DATE,
    updatedAt: DataTypes.DATE,
  },
  { sequelize, tableName: 'users' },
);

export class Session extends Model<InferAttributes<Session>, InferCreationAttributes<Session>> {
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
Session.belongsTo(User, { foreignKey: { name: 'userId', allowNull: false }, onDelete: 'CASCADE' });

export class LoginFailure extends Model<InferAttributes<LoginFailure>, InferCreationAttributes<LoginFailure>> {
  declare id: CreationOptional<number>;
  declare username: string;
  declare address: string;
  declare createdAt: CreationOptional<Date>;
}

LoginFailure.init(
  {
    id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
    username: { type: DataTypes.STRING(128), allowNull: false },
    address: { type: DataTypes.STRING(64), allowNull: false },
    createdAt: DataTypes.DATE,
  },
  { sequelize, tableName: 'login_failures', updatedAt: false },
);
