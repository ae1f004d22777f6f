import { describe, expect, it } from 'vitest';
import { buildWebManifest } from '~/server/services/branding/web-manifest';

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

  const variant = (width: number, format: 'webp' | 'png') => ({
    name: `${width}.${format}`,
    fileName: `a-${width}.${format}`,
    width,
    height: width,
    format,
    size: 100,
    url: `/api/logo/image/${width}.${format}?v=1`,
  });

  it('when a logo is uploaded, then its 192 and 512 px PNG variants are the icons, with their sizes (never the upload, never WebP)', () => {
    const variants = [32, 56, 64, 112, 192, 512].flatMap((width) => [
      variant(width, 'webp'),
      variant(width, 'png'),
    ]);
    expect(buildWebManifest('Acme Freight', { variants }).icons).toEqual([
      { src: '/api/logo/image/192.png?v=1', type: 'image/png', sizes: '192x192', purpose: 'any' },
      { src: '/api/logo/image/512.png?v=1', type: 'image/png', sizes: '512x512', purpose: 'any' },
    ]);
  });

  it('when the logo is smaller than 192 px, then its largest variant is the one icon', () => {
    const variants = [variant(100, 'webp'), variant(100, 'png')];
    expect(buildWebManifest('Acme Freight', { variants }).icons).toEqual([
      { src: '/api/logo/image/100.png?v=1', type: 'image/png', sizes: '100x100', purpose: 'any' },
    ]);
  });

  it('when the logo’s variants are not made yet, then the default icon', () => {
    expect(buildWebManifest('Acme Freight', { variants: [] }).icons).toEqual([
      { src: '/logo-default.svg', type: 'image/svg+xml', sizes: 'any', purpose: 'any' },
    ]);
  });
});
