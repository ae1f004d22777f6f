// `npm run api-types`: writes the browser client's types (src/shared/api-paths.ts) from the API
// description the route files make (GET /api/openapi.json). Run before the build and the type check;
// the file is not committed, as the message catalogue (src/paraglide) is not. Vite loads the route
// files as the portal does: TypeScript, the `~` alias.
import { globSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { API_TYPES_FILE, apiTypesOf } from './lib/api-types.mjs';
import { GeneratedStamp, inputsDigest } from './lib/generated-stamp.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const stamp = new GeneratedStamp(root, 'api-types', [API_TYPES_FILE]);
// The route files and whatever they import, the catalogue their texts come from, and the generators.
const digest = inputsDigest(
  root,
  [
    'src/**/*',
    'messages/*.json',
    'scripts/api-types.mjs',
    'scripts/lib/api-types.mjs',
    'package-lock.json',
    'tsconfig.json',
  ],
  ['src/paraglide/**', API_TYPES_FILE],
);
if (stamp.isCurrent(digest)) process.exit(0);
stamp.forget();
// Loaded only when needed: Vite takes longer to load than the check.
const { createServer } = await import('vite');
const vite = await createServer({
  root,
  configFile: false,
  logLevel: 'error',
  appType: 'custom',
  server: { middlewareMode: true, hmr: false, ws: false },
  optimizeDeps: { noDiscovery: true, include: [] },
  resolve: { alias: { '~': `${root}src` } },
});
try {
  const modules = {};
  for (const file of globSync('src/pages/api/**/*.ts', { cwd: root }).sort())
    modules[`/${file}`] = await vite.ssrLoadModule(`/${file}`);
  const { portalApiDocument } = await vite.ssrLoadModule('/src/server/http/openapi.ts');
  const { document, problems } = portalApiDocument(modules, 'http://localhost');
  if (problems.length > 0) {
    console.error(`The API description disagrees with its route files:\n${problems.join('\n')}`);
    process.exitCode = 1;
  } else {
    const types = await apiTypesOf(document);
    const path = `${root}${API_TYPES_FILE}`;
    let before = null;
    try {
      before = readFileSync(path, 'utf8');
    } catch {
      // Not generated yet.
    }
    if (before !== types) writeFileSync(path, types);
    stamp.record(digest);
  }
} finally {
  await vite.close();
}
