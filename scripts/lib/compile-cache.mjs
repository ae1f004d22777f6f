// V8's compiled code of the built portal and its dependencies, kept on disk between starts (Node's
// module compile cache): a start took 1.1 s of CPU instead of 1.5 s here, the first start excepted.
// It is kept in node_modules/.cache, which a reinstall empties; each entry is checked against its
// source, so a new build or Node version compiles afresh. Where the portal may not write there it
// starts as before. NODE_COMPILE_CACHE chooses another folder, NODE_DISABLE_COMPILE_CACHE=1 none.
import module from 'node:module';
import { fileURLToPath } from 'node:url';

const CACHE_DIR = fileURLToPath(
  new URL('../../node_modules/.cache/portal-compile-cache', import.meta.url),
);

/** Compiles what this process loads from now on with the kept code, and keeps what it compiles anew. */
export function keepCompiledCode() {
  module.enableCompileCache?.(CACHE_DIR);
}

/** Writes what was compiled so far: otherwise written at exit, which a killed process never reaches. */
export function saveCompiledCode() {
  module.flushCompileCache?.();
}
