/** What the built client modules import (src/server/http/first-paint.ts), read once from the build. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { staticImports } from './first-paint';

/** Built assets, where server.mjs serves them from. */
const CLIENT_DIR = path.resolve('dist/client');
const imports = new Map<string, readonly string[]>();

/** The static imports of the built module at `href` (`/_astro/….js`); none for anything else. */
export function builtModuleImports(href: string): readonly string[] {
  let found = imports.get(href);
  if (!found) {
    found = href.startsWith('/_astro/') && !href.includes('..') ? readImports(href) : [];
    imports.set(href, found);
  }
  return found;
}

function readImports(href: string): string[] {
  try {
    return staticImports(readFileSync(path.join(CLIENT_DIR, href), 'utf8'), href);
  } catch {
    return [];
  }
}
