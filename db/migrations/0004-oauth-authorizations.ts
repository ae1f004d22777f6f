import { DataTypes, type QueryInterface } from 'sequelize';

/** OAuth2 authorizations an admin has started and not yet finished: one row per `state`. */
export async function up(queryInterface: QueryInterface): Promise<void> {
  await queryInterface.createTable('oauth_authorizations', {
    id: { type: DataTypes.STRING(64), primaryKey: true },
    sessionId: {
      type: DataTypes.STRING(64),
      allowNull: false,
      references: { model: 'sessions', key: 'id' },
      onDelete: 'CASCADE',
    },
    codeVerifier: { type: DataTypes.TEXT, allowNull: false },
    expiresAt: { type: DataTypes.DATE, allowNull: false },
    createdAt: { type: DataTypes.DATE, allowNull: false },
  });
  await queryInterface.addIndex('oauth_authorizations', ['sessionId']);
  await queryInterface.addIndex('oauth_authorizations', ['expiresAt']);
}

export async function down(queryInterface: QueryInterface): Promise<void> {
  await queryInterface.dropTable('oauth_authorizations');
}
