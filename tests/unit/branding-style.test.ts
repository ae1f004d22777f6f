import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { brandingStyle } from '~/server/http/branding-style';
import type { Branding, StoredImage } from '~/server/services/branding';

const background: StoredImage = {
  fileName: 'a1.png',
  originalName: 'harbour.png',
  contentType: 'image/png',
  size: 100,
  uploadedAt: new Date(1_700_000_000_000),
  url: '/api/background/image?v=1700000000000',
};

const sha256 = (css: string) => `'sha256-${createHash('sha256').update(css).digest('base64')}'`;

describe('brandingStyle', () => {
  it('when everything is at its default, then there is no style element at all', () => {
    expect(brandingStyle({ logo: null, background: null, cardOpacity: 0.9 })).toBeNull();
  });

  it('when only the opacity differs, then only the card variable is set, with the hash of exactly that CSS', () => {
    const style = brandingStyle({ logo: null, background: null, cardOpacity: 0.35 });
    expect(style).toEqual({ css: ':root{--card-opacity:0.35}', source: sha256(':root{--card-opacity:0.35}') });
  });

  it('when a background is set, then it covers the page, centred and fixed', () => {
    const style = brandingStyle({ logo: null, background, cardOpacity: 0.9 });
    expect(style?.css).toBe(
      'body{background-image:url("/api/background/image?v=1700000000000");background-position:center;background-size:cover;background-attachment:fixed;background-repeat:no-repeat}',
    );
    expect(style?.source).toBe(sha256(style!.css));
  });

  it('when asked twice for the same state, then the same answer (the element and the policy are computed apart and must agree)', () => {
    const branding: Branding = { logo: null, background, cardOpacity: 0.5 };
    expect(brandingStyle(branding)).toEqual(brandingStyle({ ...branding }));
  });
});
