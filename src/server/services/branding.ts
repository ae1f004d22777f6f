/**
 * Logo, background image and card opacity (spec "Logo Management", "Background Management"). Every
 * page reads them, so they are kept in memory, reloaded after each write of this process and read
 * again at most once a second for the writes of other processes on the database: a page view costs
 * no query. The files live in UPLOADS_DIR, which every process serving the portal shares.
 */
import { open, rm, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { m } from '~/paraglide/messages.js';
import { roundCardOpacity, type BackgroundInfo, type LogoInfo } from '~/shared/branding';
import { CARD_OPACITY_DEFAULT } from '~/shared/constants';
import { config } from '../config';
import { BrandingImage, BrandingSettings, type BrandingImageKind } from '../db/models';
import { RECENT_ROWS_MAX_AGE_MS } from '../db/recent-rows';
import { AppError } from '../http/errors';

/** A file already stored in UPLOADS_DIR under a name the server chose. */
export interface NewImage {
  fileName: string;
  originalName: string;
  contentType: string;
  size: number;
}

export interface StoredImage extends NewImage {
  uploadedAt: Date;
  /** The public URL of its bytes; the upload time in the query changes it with every upload. */
  url: string;
}

export interface Branding {
  logo: StoredImage | null;
  background: StoredImage | null;
  cardOpacity: number;
}

const IMAGE_PATHS: Record<BrandingImageKind, string> = { logo: '/api/logo/image', background: '/api/background/image' };
const NOTHING_TO_DELETE: Record<BrandingImageKind, () => string> = {
  logo: () => m.branding_logo_nothing_to_delete(),
  background: () => m.branding_background_nothing_to_delete(),
};

const imageVersion = (uploadedAt: Date) => String(uploadedAt.getTime());

function toStoredImage(row: BrandingImage | undefined): StoredImage | null {
  if (!row) return null;
  const { fileName, originalName, contentType, size, uploadedAt } = row;
  return { fileName, originalName, contentType, size, uploadedAt, url: `${IMAGE_PATHS[row.kind]}?v=${imageVersion(uploadedAt)}` };
}

async function loadBranding(): Promise<Branding> {
  const [images, settings] = await Promise.all([BrandingImage.findAll(), BrandingSettings.findByPk(1)]);
  return {
    logo: toStoredImage(images.find((image) => image.kind === 'logo')),
    background: toStoredImage(images.find((image) => image.kind === 'background')),
    cardOpacity: settings?.cardOpacity ?? CARD_OPACITY_DEFAULT,
  };
}

let current: { branding: Promise<Branding>; readAt: number } | undefined;

/** What the layouts show; read from the database at most once a second. */
export function readBranding(): Promise<Branding> {
  if (current && performance.now() - current.readAt < RECENT_ROWS_MAX_AGE_MS) return current.branding;
  const reading = { branding: loadBranding(), readAt: performance.now() };
  current = reading;
  reading.branding.catch(() => {
    if (current === reading) current = undefined;
  });
  return reading.branding;
}

const DEFAULT_BRANDING: Branding = { logo: null, background: null, cardOpacity: CARD_OPACITY_DEFAULT };

/** For the layouts: when the settings cannot be read, a page still renders, with the defaults (spec section 8). */
export async function readBrandingOrDefaults(): Promise<Branding> {
  try {
    return await readBranding();
  } catch (error) {
    console.error('Reading the logo and background failed:', error);
    return DEFAULT_BRANDING;
  }
}

let writes: Promise<unknown> = Promise.resolve();

/**
 * Writes run one after another, so that each one replaces what the one before it stored and no file
 * is left behind by two uploads crossing.
 */
function exclusive<T>(write: () => Promise<T>): Promise<T> {
  const result = writes.then(write);
  writes = result.catch(() => undefined);
  return result;
}

async function reload(): Promise<Branding> {
  current = undefined;
  return readBranding();
}

const removeFile = (fileName: string) => rm(path.join(config.uploadsDir, fileName), { force: true });

/** Records the new file, then removes the one it replaces; if the record fails, the new file goes. */
function replaceImage(kind: BrandingImageKind, image: NewImage): Promise<Branding> {
  return exclusive(async () => {
    // Read afresh: another process may have replaced the image within the last second.
    const previous = (await reload())[kind];
    try {
      await BrandingImage.upsert({ kind, ...image, uploadedAt: new Date() });
    } catch (error) {
      await removeFile(image.fileName);
      throw error;
    }
    const branding = await reload();
    if (previous) await removeFile(previous.fileName);
    return branding;
  });
}

function removeImage(kind: BrandingImageKind): Promise<Branding> {
  return exclusive(async () => {
    const previous = (await reload())[kind];
    if (!previous) throw new AppError('NOT_FOUND', NOTHING_TO_DELETE[kind]());
    await BrandingImage.destroy({ where: { kind } });
    const branding = await reload();
    await removeFile(previous.fileName);
    return branding;
  });
}

function logoInfoOf({ logo }: Branding): LogoInfo {
  return {
    hasLogo: logo !== null,
    logoPath: logo?.url ?? null,
    originalName: logo?.originalName ?? null,
    size: logo?.size ?? null,
    uploadedAt: logo?.uploadedAt.toISOString() ?? null,
  };
}

function backgroundInfoOf({ background, cardOpacity }: Branding): BackgroundInfo {
  return {
    hasBackground: background !== null,
    backgroundPath: background?.url ?? null,
    originalName: background?.originalName ?? null,
    size: background?.size ?? null,
    uploadedAt: background?.uploadedAt.toISOString() ?? null,
    opacity: cardOpacity,
  };
}

export async function readLogoInfo(): Promise<LogoInfo> {
  return logoInfoOf(await readBranding());
}

export async function saveLogo(image: NewImage): Promise<LogoInfo> {
  return logoInfoOf(await replaceImage('logo', image));
}

export async function deleteLogo(): Promise<LogoInfo> {
  return logoInfoOf(await removeImage('logo'));
}

export async function readBackgroundInfo(): Promise<BackgroundInfo> {
  return backgroundInfoOf(await readBranding());
}

export async function saveBackground(image: NewImage): Promise<BackgroundInfo> {
  return backgroundInfoOf(await replaceImage('background', image));
}

export async function deleteBackground(): Promise<BackgroundInfo> {
  return backgroundInfoOf(await removeImage('background'));
}

/** `opacity` has passed the rule of spec section 5 (opacityPayloadSchema); it is stored exactly on its step. */
export function setCardOpacity(opacity: number): Promise<BackgroundInfo> {
  return exclusive(async () => {
    await BrandingSettings.upsert({ id: 1, cardOpacity: roundCardOpacity(opacity) });
    return backgroundInfoOf(await reload());
  });
}

export interface ImageFile {
  body: ReadableStream<Uint8Array>;
  contentType: string;
  size: number;
  /** Whether `version` names the stored file: only then may the answer be cached for good. */
  current: boolean;
}

/** The stored bytes of the logo or background, or null when there is none (or its file is missing). */
export async function openImage(kind: BrandingImageKind, version: string | null): Promise<ImageFile | null> {
  let image = (await readBranding())[kind];
  // A later version than this process knows was uploaded through another process.
  if (Number(version) > (image?.uploadedAt.getTime() ?? 0)) image = (await reload())[kind];
  if (!image) return null;
  // An open file stays readable even if a new upload removes it meanwhile.
  let handle: FileHandle;
  try {
    handle = await open(path.join(config.uploadsDir, image.fileName));
  } catch {
    return null;
  }
  const { size } = await handle.stat();
  return {
    body: Readable.toWeb(handle.createReadStream()) as ReadableStream<Uint8Array>,
    contentType: image.contentType,
    size,
    current: version === imageVersion(image.uploadedAt),
  };
}
