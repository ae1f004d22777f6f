// `npm run api-types`: writes the browser client's types (src/shared/api-paths.ts) from the API
// description the route files make (GET /api/openapi.json). Run before the build and the type check;
// the file is not committed, as the message catalogue (src/paraglide) is not. Vite loads the route
// files as the portal does: TypeScript, the `~` alias.
import { globSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createServer } from 'vite';
import { API_TYPES_FILE, apiTypesOf } from './lib/api-types.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
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
  }
} finally {
  await vite.close();
}
