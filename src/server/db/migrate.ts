/**
 * The migrations of db/migrations in name order, run by umzug, which records in the `migrations` table
 * what ran. Migrations are frozen history: they import nothing of the application's.
 */
import type { QueryInterface, Sequelize } from 'sequelize';
import { SequelizeStorage, Umzug } from 'umzug';

interface MigrationModule {
  up(queryInterface: QueryInterface): Promise<void>;
  down(queryInterface: QueryInterface): Promise<void>;
}

const MIGRATION_MODULES = import.meta.glob<MigrationModule>('../../../db/migrations/*.ts', { eager: true });

function migrator(sequelize: Sequelize): Umzug<QueryInterface> {
  const migrations = Object.entries(MIGRATION_MODULES)
    .map(([file, module]) => ({
      name: file.split('/').pop()!.replace(/\.ts$/, ''),
      up: () => module.up(sequelize.getQueryInterface()),
      down: () => module.down(sequelize.getQueryInterface()),
    }))
    .sort((a, b) => a.name.localeCompare(b.name));
  return new Umzug({
    migrations,
    context: sequelize.getQueryInterface(),
    storage: new SequelizeStorage({ sequelize, tableName: 'migrations' }),
    logger: undefined,
  });
}

export async function migrateDatabase(sequelize: Sequelize): Promise<void> {
  await migrator(sequelize).up();
}

/** The migrations this version has that the database has not run yet. */
export async function pendingMigrations(sequelize: Sequelize): Promise<string[]> {
  return (await migrator(sequelize).pending()).map((migration) => migration.name);
}
