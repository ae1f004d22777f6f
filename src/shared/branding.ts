/**
 * Logo and background, for the Logo Management and Background Management screens: the
 * upload rules, the accepted formats, the opacity rule and the info answers, shared by screens and server.
 */
import * as z from 'zod/mini';
import { m } from '~/paraglide/messages.js';
import {
  BACKGROUND_MAX_BYTES,
  CARD_OPACITY_MAX,
  CARD_OPACITY_MIN,
  CARD_OPACITY_STEP,
  LOGO_MAX_BYTES,
} from './constants';
import { formatSizeLimit } from './format';

/** The formats an upload may be, by the file extension its bytes are detected as. */
export const IMAGE_CONTENT_TYPES = {
  jpg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
} as const;
export type ImageExtension = keyof typeof IMAGE_CONTENT_TYPES;

/** For the file picker's `accept`: what the browser offers first. */
export const ACCEPTED_IMAGE_TYPES = Object.values(IMAGE_CONTENT_TYPES).join(',');

/** What an upload is refused with: no image at all, too big, or an image of another format (texts built when shown). */
export interface UploadRules {
  /** The multipart field that carries the file. */
  field: string;
  maxBytes: number;
  notImage: () => string;
  tooLarge: () => string;
  notAllowed: () => string;
}

export const LOGO_UPLOAD: UploadRules = {
  field: 'logo',
  maxBytes: LOGO_MAX_BYTES,
  notImage: () => m.upload_logo_not_image(),
  tooLarge: () => m.upload_logo_too_large({ max: formatSizeLimit(LOGO_MAX_BYTES) }),
  notAllowed: () => m.upload_logo_not_allowed(),
};

/** The background has one text for every file that is not an accepted image. */
export const BACKGROUND_UPLOAD: UploadRules = {
  field: 'background',
  maxBytes: BACKGROUND_MAX_BYTES,
  notImage: () => m.upload_background_invalid(),
  tooLarge: () => m.upload_background_too_large({ max: formatSizeLimit(BACKGROUND_MAX_BYTES) }),
  notAllowed: () => m.upload_background_invalid(),
};

/**
 * The browser's check before sending a picked file, by its declared type and size (the server decides
 * again by the file's bytes): the text to show, or null when it may be sent.
 */
export function pickedFileProblem(
  file: { type: string; size: number },
  rules: UploadRules,
): string | null {
  if (!file.type.startsWith('image/')) return rules.notImage();
  if (file.size > rules.maxBytes) return rules.tooLarge();
  if (!(Object.values(IMAGE_CONTENT_TYPES) as string[]).includes(file.type))
    return rules.notAllowed();
  return null;
}

const STEPS_PER_UNIT = Math.round(1 / CARD_OPACITY_STEP);

/** A card opacity: from 0.1 to 1 in steps of 0.05 (within rounding of the decimal). */
export function isCardOpacity(value: number): boolean {
  if (!Number.isFinite(value) || value < CARD_OPACITY_MIN - 1e-9 || value > CARD_OPACITY_MAX + 1e-9)
    return false;
  const steps = value * STEPS_PER_UNIT;
  return Math.abs(steps - Math.round(steps)) < 1e-6;
}

/** An accepted opacity written exactly on its step (0.35000000000000003 → 0.35). */
export function roundCardOpacity(value: number): number {
  return Math.round(value * STEPS_PER_UNIT) / STEPS_PER_UNIT;
}

const opacityRefused = () => m.branding_opacity_invalid();

export const opacityPayloadSchema = z.object({
  opacity: z
    .number({ error: opacityRefused })
    .check(z.refine(isCardOpacity, { error: opacityRefused })),
});
export type OpacityPayload = z.output<typeof opacityPayloadSchema>;

/** A width and a height in pixels. */
export interface Box {
  width: number;
  height: number;
}

/**
 * The boxes the logo is fitted into, in CSS pixels, keeping its proportions: a wordmark fills the width,
 * a square icon the height. The top bar's and the sign-in page's.
 */
export const LOGO_BOXES = {
  topBar: { width: 160, height: 40 },
  signIn: { width: 224, height: 64 },
} as const satisfies Record<string, Box>;
export type LogoPlace = keyof typeof LOGO_BOXES;

/**
 * Of one picture's sizes, the smallest that fills `box` as the largest would (`fitInBox`); the
 * largest when none does.
 */
export function sizeFilling<T extends Box>(sizes: readonly T[], box: Box): T | undefined {
  const sorted = [...sizes].sort((a, b) => a.width - b.width);
  const largest = sorted.at(-1);
  if (!largest) return undefined;
  const wanted = fitInBox(largest, box);
  return sorted.find((size) => size.width >= wanted.width) ?? largest;
}

/** `size` scaled down to fit `box`, proportions kept; never enlarged. */
export function fitInBox(size: Box, box: Box): Box {
  const scale = Math.min(1, box.width / size.width, box.height / size.height);
  return {
    width: Math.max(1, Math.round(size.width * scale)),
    height: Math.max(1, Math.round(size.height * scale)),
  };
}
/** The home-screen icon's sizes a phone asks the web app manifest for. */
export const HOME_SCREEN_ICON_SIZES = [192, 512] as const;

/**
 * The widths made of a background: a phone's screen at 1× and at 2× (390 px × 2), a laptop's, a large
 * screen's. Pages pick one by the screen's width and pixel density (src/server/http/branding-style.ts).
 */
export const BACKGROUND_WIDTHS = [640, 800, 1280, 1920] as const;

/** GET /api/logo/info; dates are ISO strings. */
export interface LogoInfo {
  hasLogo: boolean;
  /** The logo as pages show it (a variant sized for the sign-in page at 2×), never the original. */
  logoPath: string | null;
  /** The upload as it came, for the admin to download. */
  originalPath: string | null;
  originalName: string | null;
  size: number | null;
  uploadedAt: string | null;
}

/** GET /api/background/info. */
export interface BackgroundInfo {
  hasBackground: boolean;
  /** The background as pages show it on a laptop (a variant), never the original. */
  backgroundPath: string | null;
  /** The upload as it came, for the admin to download. */
  originalPath: string | null;
  originalName: string | null;
  size: number | null;
  uploadedAt: string | null;
  opacity: number;
}
