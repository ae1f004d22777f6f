/**
 * The uploaded background (cover, centred, fixed) and the card opacity as one <style>
 * element on every page (BareLayout.astro). The CSP allows no style attribute, and Astro fixes
 * a page's policy before its layout renders: the middleware adds this element's hash to the policy.
 */
import { createHash } from 'node:crypto';
import { CARD_OPACITY_DEFAULT } from '~/shared/constants';
import type { Branding } from '../services/branding';

export interface BrandingStyle {
  css: string;
  /** The CSP source that allows exactly this CSS: `'sha256-…'`. */
  source: string;
}

/** Null while everything is at its default: the page then carries no style element at all. */
export function brandingStyle({ background, cardOpacity }: Branding): BrandingStyle | null {
  let css = '';
  if (cardOpacity !== CARD_OPACITY_DEFAULT) css += `:root{--card-opacity:${cardOpacity}}`;
  if (background) {
    // The URL is the server's own path and a number: nothing in it can close the string.
    css += `body{background-image:url("${background.url}");background-position:center;background-size:cover;background-attachment:fixed;background-repeat:no-repeat}`;
  }
  if (!css) return null;
  return { css, source: `'sha256-${createHash('sha256').update(css).digest('base64')}'` };
}
