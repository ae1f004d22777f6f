/** The map's tile server, known only from MAP_TILE_URL at run time, is allowed by the pages' CSP. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPortal, type Portal } from '../support/portal';
import { ApiClient } from '../support/api-client';

let portal: Portal;

beforeAll(async () => {
  portal = await startPortal({
    MAP_TILE_URL: 'https://{s}.tiles.example.test/osm/{z}/{x}/{y}.png',
  });
});

afterAll(async () => {
  await portal?.stop();
});

async function policy(path: string): Promise<string> {
  return (await new ApiClient(portal).get(path)).headers.get('content-security-policy') ?? '';
}

const directive = (csp: string, name: string) =>
  csp
    .split(';')
    .map((part) => part.trim())
    .find((part) => part.startsWith(`${name} `));

describe('map tiles and the CSP', () => {
  it('when a page is served, then its img-src also allows the tile server of MAP_TILE_URL and the rest of its policy stays', async () => {
    const csp = await policy('/login');
    expect(directive(csp, 'img-src')).toBe(
      "img-src 'self' data: blob: https://*.tiles.example.test",
    );
    expect(directive(csp, 'default-src')).toBe("default-src 'self'");
    expect(directive(csp, 'script-src')).toMatch(/^script-src 'self' 'sha256-/);
  });

  it('when an API answer is served, then its policy stays closed', async () => {
    expect(await policy('/api/health')).toBe("default-src 'none'; frame-ancestors 'none'");
  });
});
