import { DataTypes, type QueryInterface } from 'sequelize';

/** Which state of the mirror is current: every sync that changes it counts up, and every process follows. */
export async function up(queryInterface: QueryInterface): Promise<void> {
  await queryInterface.addColumn('sync_state', 'mirrorVersion', {
    type: DataTypes.INTEGER,
    allowNull: false,
    defaultValue: 0,
  });
}

export async function down(queryInterface: QueryInterface): Promise<void> {
  await queryInterface.removeColumn('sync_state', 'mirrorVersion');
}
