import { DataTypes, type QueryInterface } from 'sequelize';

/** What the last successful sync wrote and removed, shown beside its time on Token Management. */
export async function up(queryInterface: QueryInterface): Promise<void> {
  await queryInterface.addColumn('sync_state', 'lastWritten', {
    type: DataTypes.INTEGER,
    allowNull: true,
  });
  await queryInterface.addColumn('sync_state', 'lastDeleted', {
    type: DataTypes.INTEGER,
    allowNull: true,
  });
}

export async function down(queryInterface: QueryInterface): Promise<void> {
  await queryInterface.removeColumn('sync_state', 'lastDeleted');
  await queryInterface.removeColumn('sync_state', 'lastWritten');
}
