/** Answering with a stored logo or background: its stored type, never sniffed; cached for a year under the current upload's URL. */
import { m } from '~/paraglide/messages.js';
import type { BrandingImageKind } from '../db/models';
import type { ImageFile } from '../services/branding';
import { AppError } from '../errors';

const YEAR_SECONDS = 31_536_000;

const NOT_SET: Record<BrandingImageKind, () => string> = { logo: () => m.upload_no_logo(), background: () => m.upload_no_background() };

/**
 * The stored bytes with the stored type, never sniffed as anything else. Under the URL of the current
 * upload (its `?v=`) the answer never changes, so browsers keep it for a year; under any other URL it
 * is checked again each time.
 */
export function imageResponse(image: ImageFile | null, kind: BrandingImageKind): Response {
  if (!image) throw new AppError('NOT_FOUND', NOT_SET[kind]());
  return new Response(image.body, {
    headers: {
      'Content-Type': image.contentType,
      'Content-Length': String(image.size),
      'X-Content-Type-Options': 'nosniff',
      'Cache-Control': image.current ? `public, max-age=${YEAR_SECONDS}, immutable` : 'no-cache',
    },
  });
}
