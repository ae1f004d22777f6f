// `npm run migrate -- <status|up|down>`: the database's migrations (src/server/console/migrate-command.ts),
// run on the built portal with the configuration `npm run serve` reads (the environment and .env).
import { builtConsole, consoleOutput, loadBuiltPortal } from './lib/built-portal.mjs';

const built = await loadBuiltPortal();
try {
  process.exitCode = await built.runMigrateCommand(
    process.argv.slice(2),
    builtConsole(built),
    consoleOutput,
  );
} catch (error) {
  console.error(error);
  process.exitCode = 1;
}
