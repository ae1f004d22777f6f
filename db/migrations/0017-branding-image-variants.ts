import { DataTypes, type QueryInterface } from 'sequelize';

/**
 * The sizes and formats made from an uploaded logo or background, as JSON: pages send these, never the
 * original. NULL for an image uploaded before they were made: the next start makes them.
 */
export async function up(queryInterface: QueryInterface): Promise<void> {
  await queryInterface.addColumn('branding_images', 'variants', {
    type: DataTypes.TEXT,
    allowNull: true,
  });
}

export async function down(queryInterface: QueryInterface): Promise<void> {
  await queryInterface.removeColumn('branding_images', 'variants');
}
