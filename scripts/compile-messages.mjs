/**
 * Compiles messages/{locale}.json into tree-shakeable message functions (src/paraglide), before every
 * build, check and unit run. Run here rather than as a Vite plugin: the compiler leaves a handle open
 * for half a minute after it is done, so the process is ended once the files are written.
 */
import { fileURLToPath } from 'node:url';
import { GeneratedStamp, inputsDigest } from './lib/generated-stamp.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const stamp = new GeneratedStamp(root, 'messages', [
  'src/paraglide/messages.js',
  'src/paraglide/runtime.js',
  'src/paraglide/server.js',
]);
const digest = inputsDigest(root, [
  'messages/*.json',
  'project.inlang/settings.json',
  'scripts/compile-messages.mjs',
  'node_modules/@inlang/paraglide-js/package.json',
]);
if (stamp.isCurrent(digest)) process.exit(0);
stamp.forget();
// Loaded only when needed: the compiler takes longer to load than the check.
const { compile } = await import('@inlang/paraglide-js');
await compile({
  project: './project.inlang',
  outdir: './src/paraglide',
  // On the server the request's locale comes from the locale middleware step (AsyncLocalStorage);
  // in the browser an island sets the locale it was rendered with. Nothing else is consulted.
  strategy: ['globalVariable', 'baseLocale'],
  // Vite sets import.meta.env (statically on its builds); Playwright's test files load the catalogue without Vite.
  isServer: "import.meta.env?.SSR ?? typeof window === 'undefined'",
  emitGitIgnore: false,
  emitPrettierIgnore: false,
  emitReadme: false,
});
stamp.record(digest);
process.exit(0);
