/** The web app manifest: what a phone needs to offer "Add to home screen" and open the portal like an app. */
import { HOME_SCREEN_ICON_SIZES } from '~/shared/branding';
import { THEME_COLOUR } from '~/shared/constants';
import { VARIANT_CONTENT_TYPES } from '../../images/variants';
import type { StoredImage } from './branding';

// An SVG scales to any size.
const DEFAULT_ICON = {
  src: '/logo-default.svg',
  type: 'image/svg+xml',
  sizes: 'any',
  purpose: 'any',
};

export interface WebManifest {
  name: string;
  short_name: string;
  start_url: string;
  scope: string;
  display: 'standalone';
  theme_color: string;
  background_color: string;
  icons: Array<{ src: string; type: string; sizes: string; purpose: string }>;
}

/**
 * The uploaded logo's variants for the home screen (192 and 512 px, or the largest it has), in the
 * format every launcher reads (PNG, or JPEG or GIF as it was made); none before its variants exist.
 */
function logoIcons(logo: Pick<StoredImage, 'variants'>): WebManifest['icons'] {
  const readable = logo.variants
    .filter((variant) => variant.format !== 'webp')
    .sort((a, b) => a.width - b.width);
  const chosen = new Set(
    HOME_SCREEN_ICON_SIZES.map(
      (size) =>
        readable.find((variant) => Math.max(variant.width, variant.height) >= size) ??
        readable.at(-1),
    ),
  );
  return [...chosen]
    .filter((variant) => variant !== undefined)
    .map((variant) => ({
      src: variant.url,
      type: VARIANT_CONTENT_TYPES[variant.format],
      sizes: `${variant.width}x${variant.height}`,
      purpose: 'any',
    }));
}

/** Named after PRODUCT_NAME, with the uploaded logo as its icon, else the default one. */
export function buildWebManifest(
  productName: string,
  logo: Pick<StoredImage, 'variants'> | null,
): WebManifest {
  const icons = logo ? logoIcons(logo) : [];
  return {
    name: productName,
    short_name: productName,
    start_url: '/dashboard',
    scope: '/',
    display: 'standalone',
    theme_color: THEME_COLOUR,
    background_color: THEME_COLOUR,
    icons: icons.length ? icons : [DEFAULT_ICON],
  };
}
