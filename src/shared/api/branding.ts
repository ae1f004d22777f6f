/** The logo's and the background's answers (src/shared/branding.ts names their types) and the image URLs' query. */
import * as z from 'zod/mini';
import type { BackgroundInfo, LogoInfo } from '../branding';
import { schemaOf } from '../envelope';

export const logoInfoSchema = schemaOf<LogoInfo>()(
  z.object({
    hasLogo: z.boolean(),
    logoPath: z.nullable(z.string()),
    originalPath: z.nullable(z.string()),
    originalName: z.nullable(z.string()),
    size: z.nullable(z.number()),
    uploadedAt: z.nullable(z.string()),
  }),
);

export const backgroundInfoSchema = schemaOf<BackgroundInfo>()(
  z.object({
    hasBackground: z.boolean(),
    backgroundPath: z.nullable(z.string()),
    originalPath: z.nullable(z.string()),
    originalName: z.nullable(z.string()),
    size: z.nullable(z.number()),
    uploadedAt: z.nullable(z.string()),
    opacity: z.number(),
  }),
);

/**
 * `?v=`: the upload an image URL names (its time), so that a new upload gets a new URL and caches
 * keep each for a year.
 */
export const imageVersionQuerySchema = z.object({ v: z.optional(z.string()) });
