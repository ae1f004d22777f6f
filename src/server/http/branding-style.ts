/**
 * The uploaded background (cover, centred, fixed) and the card opacity as one <style> element on every
 * page (BareLayout.astro), and the logo's <picture> sources (BrandLogo.astro). The CSP allows no style
 * attribute, and Astro fixes a page's policy before its layout renders: the middleware adds this
 * element's hash to the policy.
 *
 * The background is one of its variants, never the upload itself: the smallest at least as wide as the
 * screen's width in device pixels (a 390 px phone at 2× gets the 800 px one), in AVIF or WebP where the
 * browser takes them, else JPEG. A CSS background never holds up the first paint.
 */
import { createHash } from 'node:crypto';
import { fitInBox, LOGO_BOXES, sizeFilling, type LogoPlace } from '~/shared/branding';
import { CARD_OPACITY_DEFAULT } from '~/shared/constants';
import type { VariantFormat } from '../images/variants';
import type { Branding, StoredImage } from '../services/branding';

export interface BrandingStyle {
  css: string;
  /** The CSP source that allows exactly this CSS: `'sha256-…'`. */
  source: string;
}

type Variant = StoredImage['variants'][number];

/** Pixel densities a rule is written for: 1×, 2× (from 1.5) and 3× (from 2.5). */
const DENSITIES = [
  { density: 1, query: '' },
  { density: 2, query: '(min-resolution:1.5dppx)' },
  { density: 3, query: '(min-resolution:2.5dppx)' },
];

const PHOTO_FORMATS: readonly VariantFormat[] = ['avif', 'webp', 'jpeg'];

/** One width's background: JPEG for a browser without image-set(), then the best format the browser takes. */
function backgroundRule(byFormat: ReadonlyMap<VariantFormat, Variant>): string {
  const types = PHOTO_FORMATS.filter((format) => byFormat.has(format)).map(
    (format) => `url("${byFormat.get(format)!.url}") type("image/${format}")`,
  );
  const fallback = byFormat.get('jpeg') ?? [...byFormat.values()][0]!;
  // The URLs are the server's own paths with a number: nothing in them can close the string.
  return `body{background-image:url("${fallback.url}");background-image:image-set(${types.join(',')})}`;
}

function backgroundCss(background: StoredImage): string {
  const widths = new Map<number, Map<VariantFormat, Variant>>();
  for (const variant of background.variants) {
    const formats = widths.get(variant.width) ?? new Map<VariantFormat, Variant>();
    formats.set(variant.format, variant);
    widths.set(variant.width, formats);
  }
  const sorted = [...widths.entries()].sort(([a], [b]) => a - b);
  if (sorted.length === 0) return '';
  let css =
    'body{background-position:center;background-size:cover;' +
    'background-attachment:fixed;background-repeat:no-repeat}' +
    backgroundRule(sorted[0]![1]);
  // Later rules win: each takes over from the screen width at which the width before it falls short.
  for (const { density, query } of DENSITIES) {
    for (let index = 1; index < sorted.length; index += 1) {
      const minWidth = Math.floor(sorted[index - 1]![0] / density) + 1;
      css += `@media (min-width:${minWidth}px)${query ? ` and ${query}` : ''}{${backgroundRule(sorted[index]![1])}}`;
    }
  }
  return css;
}

/** Null while everything is at its default: the page then carries no style element at all. */
export function brandingStyle({ background, cardOpacity }: Branding): BrandingStyle | null {
  let css = '';
  if (cardOpacity !== CARD_OPACITY_DEFAULT) css += `:root{--card-opacity:${cardOpacity}}`;
  if (background) css += backgroundCss(background);
  if (!css) return null;
  return { css, source: `'sha256-${createHash('sha256').update(css).digest('base64')}'` };
}

export interface LogoPicture {
  /** WebP for the browsers that take it, as `srcset` with 1× and 2×. */
  sources: Array<{ type: string; srcset: string }>;
  /** The fallback format at 1×, with its 2× in `srcset`. */
  src: string;
  srcset: string;
  /** Its size on the page in CSS pixels: the place's box, filled with the logo's proportions. */
  width: number;
  height: number;
}

/**
 * The logo fitted into the place's box (a wordmark wide, an icon square) at 1× and 2×; null until
 * its variants exist.
 */
export function logoPicture(logo: StoredImage, place: LogoPlace): LogoPicture | null {
  const box = LOGO_BOXES[place];
  const doubleBox = { width: box.width * 2, height: box.height * 2 };
  const byFormat = (format: VariantFormat) =>
    logo.variants.filter((variant) => variant.format === format);
  const fallbackFormat = logo.variants.find((variant) => variant.format !== 'webp')?.format;
  if (!fallbackFormat) return null;
  const srcset = (variants: readonly Variant[]) => {
    const [single, double] = [
      sizeFilling(variants, box)!.url,
      sizeFilling(variants, doubleBox)!.url,
    ];
    // One file for both: a 2x descriptor would have the browser show it at half its size.
    return single === double ? `${single} 1x` : `${single} 1x, ${double} 2x`;
  };
  const webp = byFormat('webp');
  const fallback = byFormat(fallbackFormat);
  const largest = sizeFilling(fallback, { width: Infinity, height: Infinity })!;
  return {
    sources: webp.length ? [{ type: 'image/webp', srcset: srcset(webp) }] : [],
    src: sizeFilling(fallback, box)!.url,
    srcset: srcset(fallback),
    ...fitInBox(largest, box),
  };
}
