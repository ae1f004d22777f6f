import { DataTypes, type QueryInterface } from 'sequelize';

export async function up(queryInterface: QueryInterface): Promise<void> {
  // One row per kind ('logo', 'background'); the file itself lives in UPLOADS_DIR under fileName.
  await queryInterface.createTable('branding_images', {
    kind: { type: DataTypes.STRING(20), primaryKey: true },
    fileName: { type: DataTypes.STRING(100), allowNull: false },
    originalName: { type: DataTypes.STRING(255), allowNull: false },
    contentType: { type: DataTypes.STRING(50), allowNull: false },
    size: { type: DataTypes.INTEGER, allowNull: false },
    uploadedAt: { type: DataTypes.DATE, allowNull: false },
  });

  await queryInterface.createTable('branding_settings', {
    id: { type: DataTypes.INTEGER, primaryKey: true },
    cardOpacity: { type: DataTypes.DOUBLE, allowNull: false, defaultValue: 0.9 },
  });
}

export async function down(queryInterface: QueryInterface): Promise<void> {
  await queryInterface.dropTable('branding_settings');
  await queryInterface.dropTable('branding_images');
}
