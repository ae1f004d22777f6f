import { DataTypes, type QueryInterface } from 'sequelize';

export async function up(queryInterface: QueryInterface): Promise<void> {
  await queryInterface.createTable('users', {
    id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
    username: { type: DataTypes.STRING(30), allowNull: false, unique: true },
    passwordHash: { type: DataTypes.STRING(100), allowNull: false },
    fullName: { type: DataTypes.STRING(100), allowNull: true },
    email: { type: DataTypes.STRING(254), allowNull: true },
    role: { type: DataTypes.STRING(20), allowNull: false },
    isActive: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: true },
    lastLogin: { type: DataTypes.DATE, allowNull: true },
    createdAt: { type: DataTypes.DATE, allowNull: false },
    updatedAt: { type: DataTypes.DATE, allowNull: false },
  });
  await queryInterface.addIndex('users', ['role']);

  await queryInterface.createTable('sessions', {
    id: { type: DataTypes.STRING(64), primaryKey: true },
    userId: {
      type: DataTypes.INTEGER,
      allowNull: false,
      references: { model: 'users', key: 'id' },
      onDelete: 'CASCADE',
    },
    createdAt: { type: DataTypes.DATE, allowNull: false },
    lastSeenAt: { type: DataTypes.DATE, allowNull: false },
    expiresAt: { type: DataTypes.DATE, allowNull: false },
  });
  await queryInterface.addIndex('sessions', ['userId']);
  await queryInterface.addIndex('sessions', ['expiresAt']);

  await queryInterface.createTable('login_failures', {
    id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
    username: { type: DataTypes.STRING(128), allowNull: false },
    address: { type: DataTypes.STRING(64), allowNull: false },
    createdAt: { type: DataTypes.DATE, allowNull: false },
  });
  await queryInterface.addIndex('login_failures', ['username', 'address', 'createdAt']);
  await queryInterface.addIndex('login_failures', ['address', 'createdAt']);
}

export async function down(queryInterface: QueryInterface): Promise<void> {
  await queryInterface.dropTable('login_failures');
  await queryInterface.dropTable('sessions');
  await queryInterface.dropTable('users');
}
