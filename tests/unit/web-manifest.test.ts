import { describe, expect, it } from 'vitest';
import { buildWebManifest } from '~/server/services/web-manifest';

describe('buildWebManifest', () => {
  it('when no logo is uploaded, then the app is named after the product, opens the dashboard standalone, with the default icon', () => {
    expect(buildWebManifest('Acme Freight', null)).toMatchObject({
      name: 'Acme Freight',
      short_name: 'Acme Freight',
      start_url: '/dashboard',
      display: 'standalone',
      icons: [{ src: '/logo-default.svg', type: 'image/svg+xml', sizes: 'any' }],
    });
  });

  it('when a logo is uploaded, then it is the icon', () => {
    const manifest = buildWebManifest('Acme Freight', { url: '/api/logo/image?v=1', contentType: 'image/png' });
    expect(manifest.icons).toEqual([{ src: '/api/logo/image?v=1', type: 'image/png', sizes: 'any', purpose: 'any' }]);
  });
});
