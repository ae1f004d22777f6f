import { DataTypes, type QueryInterface } from 'sequelize';

/** A user's language preference (README.md "Languages"): null until the user chooses one. */
export async function up(queryInterface: QueryInterface): Promise<void> {
  await queryInterface.addColumn('users', 'locale', {
    type: DataTypes.STRING(10),
    allowNull: true,
  });
}

export async function down(queryInterface: QueryInterface): Promise<void> {
  await queryInterface.removeColumn('users', 'locale');
}
