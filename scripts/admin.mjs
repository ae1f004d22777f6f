// `npm run admin -- <command>`: the operators' commands at the console (src/server/console/admin-commands.ts),
// run on the built portal with the configuration `npm run serve` reads (the environment and .env).
import { existsSync } from 'node:fs';

// As server.mjs: the production build of what the bundle holds, whatever NODE_ENV the shell has.
process.env.NODE_ENV ??= 'production';
const entry = new URL('../dist/server/entry.mjs', import.meta.url);
if (!existsSync(entry)) {
  console.error('No built portal in dist/: run `npm run build` first.');
  process.exit(1);
}
const { createPortal, loadConfig, runAdminCommand } = await import(entry.href);

/** Reads a line from the terminal without echoing it; null without a terminal (a script, a pipe). */
function askSecret(prompt) {
  const { stdin, stdout } = process;
  if (!stdin.isTTY) return Promise.resolve(null);
  stdout.write(prompt);
  stdin.setRawMode(true);
  stdin.setEncoding('utf8');
  stdin.resume();
  return new Promise((resolve) => {
    let typed = '';
    const finish = (answer) => {
      stdin.off('data', onData);
      stdin.setRawMode(false);
      stdin.pause();
      stdout.write('\n');
      resolve(answer);
    };
    function onData(chunk) {
      for (const char of chunk) {
        if (char === '\r' || char === '\n') return finish(typed);
        // Ctrl-C or Ctrl-D: nothing is changed.
        if (char === '\u0003' || char === '\u0004') {
          finish(null);
          process.exit(130);
        }
        typed = char === '\u007f' || char === '\b' ? typed.slice(0, -1) : typed + char;
      }
    }
    stdin.on('data', onData);
  });
}

let portal;
const adminConsole = {
  async open() {
    let config;
    try {
      config = loadConfig(process.env);
    } catch (error) {
      console.error(`The configuration is not valid: ${error.message}`);
      process.exit(1);
    }
    if (config.sqliteFile && !existsSync(config.sqliteFile)) {
      console.error(`No database at ${config.sqliteFile}: check DATABASE_URL, or start the portal once.`);
      process.exit(1);
    }
    // Only the database: no background work, no first admin, no migrations (the server's start does those).
    portal = createPortal(config, { background: false });
    await portal.db.connect();
    return portal;
  },
  async close() {
    await portal?.stop();
  },
};

const io = {
  print: (line) => console.log(line),
  printError: (line) => console.error(line),
  askSecret,
};

try {
  process.exitCode = await runAdminCommand(process.argv.slice(2), adminConsole, io);
} catch (error) {
  console.error(error);
  process.exitCode = 1;
}
