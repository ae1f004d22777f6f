/**
 * Answering with a stored logo or background, or one of their variants: its stored type, never
 * sniffed; cached for a year under the current upload's URL.
 */
import { m } from '~/paraglide/messages.js';
import type { BrandingImageKind } from '../db/models';
import type { ImageFile } from '../services/branding';
import { AppError } from '../errors';

const YEAR_SECONDS = 31_536_000;

const NOT_SET: Record<BrandingImageKind, () => string> = {
  logo: () => m.upload_no_logo(),
  background: () => m.upload_no_background(),
};

/**
 * The stored bytes with the stored type, never sniffed as anything else. Under the URL of the current
 * upload (its `?v=`) the answer never changes, so browsers keep it for a year; under any other URL it
 * is checked again each time. A `download` (the admin's original) is saved under its uploaded name and
 * kept by the admin's browser only.
 */
export function imageResponse(
  image: ImageFile | null,
  kind: BrandingImageKind,
  { download = false } = {},
): Response {
  if (!image) throw new AppError('NOT_FOUND', NOT_SET[kind]());
  const headers = new Headers({
    'Content-Type': image.contentType,
    'Content-Length': String(image.size),
    'X-Content-Type-Options': 'nosniff',
    'Cache-Control': image.current
      ? `${download ? 'private' : 'public'}, max-age=${YEAR_SECONDS}, immutable`
      : 'no-cache',
  });
  if (download) headers.set('Content-Disposition', contentDisposition(image.name));
  return new Response(image.body, { headers });
}

/**
 * An ASCII name for every browser, and the exact one (UTF-8) for those that read filename*, with
 * ' ( ) * percent-encoded too (encodeURIComponent leaves them, and filename* may not hold them).
 */
export function contentDisposition(
  name: string,
  disposition: 'attachment' | 'inline' = 'attachment',
): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  const exact = encodeURIComponent(name).replace(
    /['()*]/g,
    (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${disposition}; filename="${ascii}"; filename*=UTF-8''${exact}`;
}
