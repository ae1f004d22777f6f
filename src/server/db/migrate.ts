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

const MIGRATION_MODULES = import.meta.glob<MigrationModule>('../../../db/migrations/*.ts', {
  eager: true,
});

function migrations(sequelize: Sequelize) {
  return Object.entries(MIGRATION_MODULES)
    .map(([file, module]) => ({
      name: file.split('/').pop()!.replace(/\.ts$/, ''),
      up: () => module.up(sequelize.getQueryInterface()),
      down: () => module.down(sequelize.getQueryInterface()),
    }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

const storageOf = (sequelize: Sequelize) =>
  new SequelizeStorage({ sequelize, tableName: 'migrations' });

function migrator(sequelize: Sequelize): Umzug<QueryInterface> {
  return new Umzug({
    migrations: migrations(sequelize),
    context: sequelize.getQueryInterface(),
    storage: storageOf(sequelize),
    logger: undefined,
  });
}

/** A database a newer version of the portal has migrated: this version must not touch it. */
export class UnknownMigrationsError extends Error {
  constructor(readonly names: string[]) {
    super(
      `The database has migrations this version of the portal does not know (${names.join(', ')}): ` +
        'a newer version has run on it. Install that version again, or restore the backup taken ' +
        'before the upgrade (npm run restore).',
    );
  }
}

/** The migrations the database records, in the order they ran, and which of them this version knows. */
export async function migrationStatus(
  sequelize: Sequelize,
): Promise<{ applied: string[]; pending: string[]; unknown: string[] }> {
  const applied = await storageOf(sequelize).executed();
  const known = migrations(sequelize).map((migration) => migration.name);
  return {
    applied,
    pending: known.filter((name) => !applied.includes(name)),
    unknown: applied.filter((name) => !known.includes(name)),
  };
}

async function refuseUnknownMigrations(sequelize: Sequelize): Promise<void> {
  const { unknown } = await migrationStatus(sequelize);
  if (unknown.length > 0) throw new UnknownMigrationsError(unknown);
}

/** Runs the pending migrations; answers their names. Refuses a database a newer version has migrated. */
export async function migrateDatabase(sequelize: Sequelize): Promise<string[]> {
  await refuseUnknownMigrations(sequelize);
  return (await migrator(sequelize).up()).map((migration) => migration.name);
}

/** Reverts the last migration the database ran; answers its name, or null when none has run. */
export async function revertLastMigration(sequelize: Sequelize): Promise<string | null> {
  await refuseUnknownMigrations(sequelize);
  const [reverted] = await migrator(sequelize).down();
  return reverted?.name ?? null;
}
