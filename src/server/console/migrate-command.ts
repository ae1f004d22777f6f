/**
 * `npm run migrate -- <status|up|down>`: the database's migrations at the console (scripts/migrate.mjs
 * runs it on the built code, whose bundle holds the migrations). The portal's start runs `up` itself;
 * `down` is for going back to an earlier version without a backup.
 */
import {
  migrateDatabase,
  migrationStatus,
  revertLastMigration,
  UnknownMigrationsError,
} from '../db/migrate';
import type { AdminConsole, ConsoleIO } from './admin-commands';

const USAGE = [
  'Usage: npm run migrate -- <command>',
  '',
  'Commands:',
  '  status    lists the migrations the database has run and those it has not yet',
  '  up        runs the pending migrations (the portal does so at its start)',
  '  down      reverts the last migration the database ran (stop the portal first)',
].join('\n');

/** Runs one command line; answers the exit code. */
export async function runMigrateCommand(
  argv: string[],
  portal: AdminConsole,
  io: ConsoleIO,
): Promise<number> {
  const [name, ...rest] = argv;
  if (name === '--help' || name === '-h' || name === 'help') {
    io.print(USAGE);
    return 0;
  }
  if (!name || !['status', 'up', 'down'].includes(name) || rest.length > 0) {
    io.printError(name ? `Unknown arguments "${argv.join(' ')}".\n\n${USAGE}` : USAGE);
    return 1;
  }
  try {
    const { db } = await portal.open();
    if (name === 'status') {
      const { applied, pending, unknown } = await migrationStatus(db.sequelize);
      for (const migration of applied)
        io.print(
          `applied  ${migration}${unknown.includes(migration) ? '  (unknown to this version)' : ''}`,
        );
      for (const migration of pending) io.print(`pending  ${migration}`);
      io.print(`${applied.length} applied, ${pending.length} pending.`);
      return unknown.length > 0 ? 1 : 0;
    }
    if (name === 'up') {
      const ran = await db.oneStartAtATime(() => migrateDatabase(db.sequelize));
      for (const migration of ran) io.print(`applied  ${migration}`);
      io.print(
        ran.length > 0 ? `${ran.length} migrations applied.` : 'The database is up to date.',
      );
      return 0;
    }
    const reverted = await db.oneStartAtATime(() => revertLastMigration(db.sequelize));
    io.print(reverted ? `reverted ${reverted}` : 'No migration has run: nothing to revert.');
    return 0;
  } catch (error) {
    if (!(error instanceof UnknownMigrationsError)) throw error;
    io.printError(error.message);
    return 1;
  } finally {
    await portal.close();
  }
}
