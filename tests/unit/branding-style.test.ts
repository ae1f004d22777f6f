import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { brandingStyle, logoPicture } from '~/server/http/branding-style';
import type { VariantFormat } from '~/server/images/variants';
import type { Branding, StoredImage } from '~/server/services/branding/branding';

const EXTENSIONS: Record<VariantFormat, string> = {
  avif: 'avif',
  webp: 'webp',
  jpeg: 'jpg',
  png: 'png',
  gif: 'gif',
};

function image(
  kind: 'logo' | 'background',
  sizes: Array<[number, number]>,
  formats: VariantFormat[],
): StoredImage {
  return {
    fileName: 'a1.jpg',
    originalName: 'harbour.jpg',
    contentType: 'image/jpeg',
    size: 2_000_000,
    uploadedAt: new Date(1_700_000_000_000),
    url: `/api/${kind}/image?v=1700000000000`,
    variants: sizes.flatMap(([width, height]) =>
      formats.map((format) => ({
        name: `${width}.${EXTENSIONS[format]}`,
        fileName: `a1-${width}.${EXTENSIONS[format]}`,
        width,
        height,
        format,
        size: 1000,
        url: `/api/${kind}/image/${width}.${EXTENSIONS[format]}?v=1700000000000`,
      })),
    ),
  };
}

const background = image(
  'background',
  [
    [640, 427],
    [800, 533],
    [1280, 853],
    [1920, 1280],
  ],
  ['avif', 'webp', 'jpeg'],
);

const sha256 = (css: string) => `'sha256-${createHash('sha256').update(css).digest('base64')}'`;

/**
 * What a browser of this width (CSS pixels) and density takes from the CSS: the last body rule whose
 * media query holds, its image-set() (an image-set() browser), or its url() (one without).
 */
function chosenBackground(
  css: string,
  width: number,
  density: number,
  imageSet = true,
): string | null {
  let chosen: string | null = null;
  for (const [, media, body] of css.matchAll(/(?:@media ([^{]*)\{)?body\{([^}]*)\}/g)) {
    const holds = (media ?? '').split(' and ').every((condition) => {
      const minWidth = /min-width:(\d+)px/.exec(condition);
      const minResolution = /min-resolution:([\d.]+)dppx/.exec(condition);
      if (minWidth) return width >= Number(minWidth[1]);
      if (minResolution) return density >= Number(minResolution[1]);
      return condition === '';
    });
    const declaration = imageSet
      ? /image-set\(url\("([^"]+)"\)/.exec(body!)
      : /background-image:url\("([^"]+)"\)/.exec(body!);
    if (holds && declaration) chosen = declaration[1]!;
  }
  return chosen;
}

describe('brandingStyle', () => {
  it('when everything is at its default, then there is no style element at all', () => {
    expect(brandingStyle({ logo: null, background: null, cardOpacity: 0.9 })).toBeNull();
  });

  it('when only the opacity differs, then only the card variable is set, with the hash of exactly that CSS', () => {
    const style = brandingStyle({ logo: null, background: null, cardOpacity: 0.35 });
    expect(style).toEqual({
      css: ':root{--card-opacity:0.35}',
      source: sha256(':root{--card-opacity:0.35}'),
    });
  });

  it('when a background is set, then it covers the page, centred and fixed, and the hash is of exactly that CSS', () => {
    const style = brandingStyle({ logo: null, background, cardOpacity: 0.9 })!;
    expect(style.css).toContain(
      'body{background-position:center;background-size:cover;background-attachment:fixed;background-repeat:no-repeat}',
    );
    expect(style.source).toBe(sha256(style.css));
  });

  it('when a background is set, then the page never names the upload itself, only its variants', () => {
    const { css } = brandingStyle({ logo: null, background, cardOpacity: 0.9 })!;
    expect(css).not.toContain('/api/background/image?');
    expect(css).toContain('/api/background/image/800.avif?v=1700000000000');
  });

  it.each([
    [390, 2, '800.avif'],
    [390, 1, '640.avif'],
    [320, 3, '1280.avif'],
    [768, 1, '800.avif'],
    [1280, 1, '1280.avif'],
    [1280, 2, '1920.avif'],
    [1920, 1, '1920.avif'],
    [2560, 1, '1920.avif'],
  ])(
    'when the screen is %i px wide at %i×, then the smallest variant at least as wide in device pixels is taken: %s',
    (width, density, expected) => {
      const { css } = brandingStyle({ logo: null, background, cardOpacity: 0.9 })!;
      expect(chosenBackground(css, width, density)).toBe(
        `/api/background/image/${expected}?v=1700000000000`,
      );
    },
  );

  it('when each rule names its formats, then AVIF comes first, then WebP, then JPEG; without image-set() the JPEG of the same width', () => {
    const { css } = brandingStyle({ logo: null, background, cardOpacity: 0.9 })!;
    expect(css).toContain(
      'image-set(url("/api/background/image/640.avif?v=1700000000000") type("image/avif"),url("/api/background/image/640.webp?v=1700000000000") type("image/webp"),url("/api/background/image/640.jpg?v=1700000000000") type("image/jpeg"))',
    );
    expect(chosenBackground(css, 390, 2, false)).toBe(
      '/api/background/image/800.jpg?v=1700000000000',
    );
  });

  it('when the upload is narrower than the larger widths, then only the widths it has are offered', () => {
    const small = image('background', [[900, 600]], ['avif', 'webp', 'jpeg']);
    const { css } = brandingStyle({ logo: null, background: small, cardOpacity: 0.9 })!;
    expect(css).not.toContain('@media');
    expect(chosenBackground(css, 1920, 2)).toBe('/api/background/image/900.avif?v=1700000000000');
  });

  it('when the variants are not made yet, then no background is sent at all (never the upload)', () => {
    const unmade = { ...background, variants: [] };
    expect(brandingStyle({ logo: null, background: unmade, cardOpacity: 0.9 })).toBeNull();
  });

  it('when asked twice for the same state, then the same answer (the element and the policy are computed apart and must agree)', () => {
    const branding: Branding = { logo: null, background, cardOpacity: 0.5 };
    expect(brandingStyle(branding)).toEqual(brandingStyle({ ...branding }));
  });
});

describe('logoPicture', () => {
  // The variants a square logo gets: its boxes at 1× and 2× (src/server/services/branding.ts), and the home screen's.
  const square = image(
    'logo',
    [
      [40, 40],
      [64, 64],
      [80, 80],
      [128, 128],
      [192, 192],
      [512, 512],
    ],
    ['webp', 'png'],
  );

  it('when a square logo shows in the top bar, then square at 40 px (80 px at 2×), WebP first and PNG for the rest', () => {
    expect(logoPicture(square, 'topBar')).toEqual({
      sources: [
        {
          type: 'image/webp',
          srcset:
            '/api/logo/image/40.webp?v=1700000000000 1x, /api/logo/image/80.webp?v=1700000000000 2x',
        },
      ],
      src: '/api/logo/image/40.png?v=1700000000000',
      srcset:
        '/api/logo/image/40.png?v=1700000000000 1x, /api/logo/image/80.png?v=1700000000000 2x',
      width: 40,
      height: 40,
    });
  });

  it('when a 400 × 120 wordmark shows, then it keeps its proportions: 133 × 40 in the top bar, 213 × 64 on the sign-in page', () => {
    const wordmark = image(
      'logo',
      [
        [133, 40],
        [192, 58],
        [213, 64],
        [267, 80],
        [400, 120],
      ],
      ['webp', 'png'],
    );
    expect(logoPicture(wordmark, 'topBar')).toMatchObject({
      srcset:
        '/api/logo/image/133.png?v=1700000000000 1x, /api/logo/image/267.png?v=1700000000000 2x',
      width: 133,
      height: 40,
    });
    expect(logoPicture(wordmark, 'signIn')).toMatchObject({
      srcset:
        '/api/logo/image/213.png?v=1700000000000 1x, /api/logo/image/400.png?v=1700000000000 2x',
      width: 213,
      height: 64,
    });
  });

  it('when the logo is smaller than its place, then its largest variant serves both densities, named once (at 1×, its own size)', () => {
    const tiny = image('logo', [[20, 20]], ['webp', 'png']);
    expect(logoPicture(tiny, 'signIn')).toEqual({
      sources: [{ type: 'image/webp', srcset: '/api/logo/image/20.webp?v=1700000000000 1x' }],
      src: '/api/logo/image/20.png?v=1700000000000',
      srcset: '/api/logo/image/20.png?v=1700000000000 1x',
      width: 20,
      height: 20,
    });
  });

  it('when the variants are not made yet, then there is no picture (the default icon shows)', () => {
    expect(logoPicture({ ...square, variants: [] }, 'topBar')).toBeNull();
  });
});
