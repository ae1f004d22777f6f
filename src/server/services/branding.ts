/**
 * Logo, background image and card opacity. Every
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
import type { Clock } from '../clock';
import type { Config } from '../config';
import type { Database } from '../db/database';
import type { BrandingImage, BrandingImageKind } from '../db/models';
import { RECENT_ROWS_MAX_AGE_MS } from '../db/recent-rows';
import { AppError } from '../errors';

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

const DEFAULT_BRANDING: Branding = { logo: null, background: null, cardOpacity: CARD_OPACITY_DEFAULT };

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

export interface BrandingDeps {
  db: Database;
  clock: Clock;
  config: Pick<Config, 'uploadsDir'>;
}

export class BrandingStore {
  private current: { branding: Promise<Branding>; readAt: number } | undefined;
  private writes: Promise<unknown> = Promise.resolve();

  constructor(private readonly deps: BrandingDeps) {}

  /** What the layouts show; read from the database at most once a second. */
  read(): Promise<Branding> {
    if (this.current && performance.now() - this.current.readAt < RECENT_ROWS_MAX_AGE_MS) return this.current.branding;
    const reading = { branding: this.load(), readAt: performance.now() };
    this.current = reading;
    reading.branding.catch(() => {
      if (this.current === reading) this.current = undefined;
    });
    return reading.branding;
  }

  /** For the layouts: when the settings cannot be read, a page still renders, with the defaults. */
  async readOrDefaults(): Promise<Branding> {
    try {
      return await this.read();
    } catch (error) {
      console.error('Reading the logo and background failed:', error);
      return DEFAULT_BRANDING;
    }
  }

  async readLogoInfo(): Promise<LogoInfo> {
    return logoInfoOf(await this.read());
  }

  async saveLogo(image: NewImage): Promise<LogoInfo> {
    return logoInfoOf(await this.replaceImage('logo', image));
  }

  async deleteLogo(): Promise<LogoInfo> {
    return logoInfoOf(await this.removeImage('logo'));
  }

  async readBackgroundInfo(): Promise<BackgroundInfo> {
    return backgroundInfoOf(await this.read());
  }

  async saveBackground(image: NewImage): Promise<BackgroundInfo> {
    return backgroundInfoOf(await this.replaceImage('background', image));
  }

  async deleteBackground(): Promise<BackgroundInfo> {
    return backgroundInfoOf(await this.removeImage('background'));
  }

  /** `opacity` has passed the shared rule (opacityPayloadSchema); it is stored exactly on its step. */
  setCardOpacity(opacity: number): Promise<BackgroundInfo> {
    return this.exclusive(async () => {
      await this.deps.db.models.BrandingSettings.upsert({ id: 1, cardOpacity: roundCardOpacity(opacity) });
      return backgroundInfoOf(await this.reload());
    });
  }

  /** The stored bytes of the logo or background, or null when there is none (or its file is missing). */
  async openImage(kind: BrandingImageKind, version: string | null): Promise<ImageFile | null> {
    let image = (await this.read())[kind];
    // A later version than this process knows was uploaded through another process.
    if (Number(version) > (image?.uploadedAt.getTime() ?? 0)) image = (await this.reload())[kind];
    if (!image) return null;
    // An open file stays readable even if a new upload removes it meanwhile.
    let handle: FileHandle;
    try {
      handle = await open(path.join(this.deps.config.uploadsDir, image.fileName));
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

  private async load(): Promise<Branding> {
    const { BrandingImage, BrandingSettings } = this.deps.db.models;
    const [images, settings] = await Promise.all([BrandingImage.findAll(), BrandingSettings.findByPk(1)]);
    return {
      logo: toStoredImage(images.find((image) => image.kind === 'logo')),
      background: toStoredImage(images.find((image) => image.kind === 'background')),
      cardOpacity: settings?.cardOpacity ?? CARD_OPACITY_DEFAULT,
    };
  }

  /**
   * Writes run one after another, so that each one replaces what the one before it stored and no file
   * is left behind by two uploads crossing.
   */
  private exclusive<T>(write: () => Promise<T>): Promise<T> {
    const result = this.writes.then(write);
    this.writes = result.catch(() => undefined);
    return result;
  }

  private reload(): Promise<Branding> {
    this.current = undefined;
    return this.read();
  }

  private removeFile(fileName: string): Promise<void> {
    return rm(path.join(this.deps.config.uploadsDir, fileName), { force: true });
  }

  /** Records the new file, then removes the one it replaces; if the record fails, the new file goes. */
  private replaceImage(kind: BrandingImageKind, image: NewImage): Promise<Branding> {
    return this.exclusive(async () => {
      // Read afresh: another process may have replaced the image within the last second.
      const previous = (await this.reload())[kind];
      try {
        await this.deps.db.models.BrandingImage.upsert({ kind, ...image, uploadedAt: new Date(this.deps.clock.now()) });
      } catch (error) {
        await this.removeFile(image.fileName);
        throw error;
      }
      const branding = await this.reload();
      if (previous) await this.removeFile(previous.fileName);
      return branding;
    });
  }

  private removeImage(kind: BrandingImageKind): Promise<Branding> {
    return this.exclusive(async () => {
      const previous = (await this.reload())[kind];
      if (!previous) throw new AppError('NOT_FOUND', NOTHING_TO_DELETE[kind]());
      await this.deps.db.models.BrandingImage.destroy({ where: { kind } });
      const branding = await this.reload();
      await this.removeFile(previous.fileName);
      return branding;
    });
  }
}

export interface ImageFile {
  body: ReadableStream<Uint8Array>;
  contentType: string;
  size: number;
  /** Whether `version` names the stored file: only then may the answer be cached for good. */
  current: boolean;
}
