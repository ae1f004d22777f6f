// What `npm run admin` and `npm run migrate` share: the built portal (dist/server/entry.mjs) with the
// configuration `npm run serve` reads (the environment and .env), opened for its database only.
import { existsSync } from 'node:fs';
import { keepCompiledCode } from './compile-cache.mjs';

/** The built entry's exports; exits with a line saying what to do when there is no build. */
export async function loadBuiltPortal() {
  // As server.mjs: the production build of what the bundle holds, whatever NODE_ENV the shell has.
  process.env.NODE_ENV ??= 'production';
  const entry = new URL('../../dist/server/entry.mjs', import.meta.url);
  if (!existsSync(entry)) {
    console.error('No built portal in dist/: run `npm run build` first.');
    process.exit(1);
  }
  keepCompiledCode();
  return import(entry.href);
}

/** The console's portal: its database, connected at open(); no background work, no first admin, no migrations. */
export function builtConsole({ createPortal, loadConfig }) {
  let portal;
  return {
    async open() {
      let config;
      try {
        config = loadConfig(process.env);
      } catch (error) {
        console.error(`The configuration is not valid: ${error.message}`);
        process.exit(1);
      }
      if (config.sqliteFile && !existsSync(config.sqliteFile)) {
        console.error(
          `No database at ${config.sqliteFile}: check DATABASE_URL, or start the portal once.`,
        );
        process.exit(1);
      }
      portal = createPortal(config, { background: false });
      await portal.db.connect();
      return portal;
    },
    async close() {
      await portal?.stop();
    },
  };
}

/** Prints lines as the commands give them. */
export const consoleOutput = {
  print: (line) => console.log(line),
  printError: (line) => console.error(line),
};
