// `npm run admin -- <command>`: the operators' commands at the console (src/server/console/admin-commands.ts),
// run on the built portal with the configuration `npm run serve` reads (the environment and .env).
import { builtConsole, consoleOutput, loadBuiltPortal } from './lib/built-portal.mjs';

const built = await loadBuiltPortal();

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

const io = { ...consoleOutput, askSecret };

try {
  process.exitCode = await built.runAdminCommand(process.argv.slice(2), builtConsole(built), io);
} catch (error) {
  console.error(error);
  process.exitCode = 1;
}
