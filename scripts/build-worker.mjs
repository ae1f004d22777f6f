// Bundles the service worker (src/worker/service-worker.ts) into dist/client/sw.js: one file at the
// site's root, so that its scope is the whole portal; precompress.mjs then writes its .br and .gz.
import { build } from 'esbuild';

await build({
  entryPoints: ['src/worker/service-worker.ts'],
  outfile: 'dist/client/sw.js',
  bundle: true,
  minify: true,
  format: 'iife',
  target: 'es2022',
  tsconfig: 'tsconfig.json',
  logLevel: 'warning',
});
console.log('built dist/client/sw.js');
