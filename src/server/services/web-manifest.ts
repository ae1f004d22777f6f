/** The web app manifest: what a phone needs to offer "Add to home screen" and open the portal like an app. */
import { THEME_COLOUR } from '~/shared/constants';
import type { StoredImage } from './branding';

const DEFAULT_ICON = { src: '/logo-default.svg', type: 'image/svg+xml' };

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

/** Named after PRODUCT_NAME, with the uploaded logo as its icon, else the default one. */
export function buildWebManifest(productName: string, logo: Pick<StoredImage, 'url' | 'contentType'> | null): WebManifest {
  const icon = logo ? { src: logo.url, type: logo.contentType } : DEFAULT_ICON;
  return {
    name: productName,
    short_name: productName,
    start_url: '/dashboard',
    scope: '/',
    display: 'standalone',
    theme_color: THEME_COLOUR,
    background_color: THEME_COLOUR,
    // The logo's pixel size is not known: "any" lets the phone scale it (an SVG scales freely).
    icons: [{ ...icon, sizes: 'any', purpose: 'any' }],
  };
}
