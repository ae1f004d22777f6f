/** Applies the migrations of db/migrations in name order; umzug remembers what ran. */
import type { QueryInterface } from 'sequelize';
import { SequelizeStorage, Umzug } from 'umzug';
import { sequelize } from './index';

interface MigrationModule {
  up(queryInterface: QueryInterface): Promise<void>;
  down(queryInterface: QueryInterface): Promise<void>;
}

const modules = import.meta.glob<MigrationModule>('../../../db/migrations/*.ts', { eager: true });

const migrations = Object.entries(modules)
  .map(([file, module]) => ({
    name: file.split('/').pop()!.replace(/\.ts$/, ''),
    up: () => module.up(sequelize.getQueryInterface()),
    down: () => module.down(sequelize.getQueryInterface()),
  }))
  .sort((a, b) => a.name.localeCompare(b.name));

export async function migrateDatabase(): Promise<void> {
  const umzug = new Umzug({
    migrations,
    storage: new SequelizeStorage({ sequelize, tableName: 'migrations' }),
    logger: undefined,
  });
  await umzug.up();
}
