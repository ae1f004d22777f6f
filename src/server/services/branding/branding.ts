/**
 * Logo, background image and card opacity. Every
 * page reads them, so they are kept in memory, reloaded after each write of this process and read
 * again at most once a second for the writes of other processes on the database: a page view costs
 * no query. The files live in UPLOADS_DIR, which every process serving the portal shares.
 *
 * Pages never send an upload as it came: each is made into sizes and formats for screens when it is
 * uploaded (src/server/images/variants.ts), and an image uploaded before that is made so at start-up.
 * The original stays for the admin to download.
 */
import { open, rm, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { m } from '~/paraglide/messages.js';
import {
  BACKGROUND_WIDTHS,
  HOME_SCREEN_ICON_SIZES,
  LOGO_BOXES,
  roundCardOpacity,
  sizeFilling,
  type BackgroundInfo,
  type LogoInfo,
} from '~/shared/branding';
import { CARD_OPACITY_DEFAULT } from '~/shared/constants';
import type { Clock } from '../../clock';
import type { Config } from '../../config';
import type { Logger } from '../../logger';
import type { Database } from '../../db/database';
import type { BrandingImage, BrandingImageKind } from '../../db/models';
import { RECENT_ROWS_MAX_AGE_MS } from '../../db/recent-rows';
import { AppError } from '../../errors';
import { recordAudit, type AuditActor } from '../audit';
import {
  ImageTooLargeError,
  ImageUnreadableError,
  MAX_IMAGE_PIXELS,
  VARIANT_CONTENT_TYPES,
  makeVariants,
  removeVariants,
  type ImageVariant,
  type VariantPlan,
} from '../../images/variants';

/** A file already stored in UPLOADS_DIR under a name the server chose. */
export interface NewImage {
  fileName: string;
  originalName: string;
  contentType: string;
  size: number;
}

export interface StoredImage extends NewImage {
  uploadedAt: Date;
  /** The URL of the original (for the admin); the upload time in the query changes it with every upload. */
  url: string;
  /** What pages send, each with its URL; empty until made. */
  variants: Array<ImageVariant & { url: string }>;
}

export interface Branding {
  logo: StoredImage | null;
  background: StoredImage | null;
  cardOpacity: number;
}

const IMAGE_PATHS: Record<BrandingImageKind, string> = {
  logo: '/api/logo/image',
  background: '/api/background/image',
};

const PLANS: Record<BrandingImageKind, VariantPlan> = {
  // Each displayed size at 1× and 2×, and the home screen's icons.
  logo: {
    fit: 'box',
    boxes: [
      ...Object.values(LOGO_BOXES).flatMap((box) => [
        box,
        { width: box.width * 2, height: box.height * 2 },
      ]),
      ...HOME_SCREEN_ICON_SIZES.map((size) => ({ width: size, height: size })),
    ],
    kind: 'graphic',
  },
  background: { fit: 'width', widths: BACKGROUND_WIDTHS, kind: 'photo' },
};
const AUDIT_ACTIONS = {
  logo: { changed: 'branding.logo-changed', removed: 'branding.logo-removed' },
  background: { changed: 'branding.background-changed', removed: 'branding.background-removed' },
} as const;
const NOTHING_TO_DELETE: Record<BrandingImageKind, () => string> = {
  logo: () => m.branding_logo_nothing_to_delete(),
  background: () => m.branding_background_nothing_to_delete(),
};

const imageVersion = (uploadedAt: Date) => String(uploadedAt.getTime());
/** The original's file name without its extension: its variants are named after it. */
const stemOf = (fileName: string) => fileName.replace(/\.[a-z]+$/, '');

function toStoredImage(row: BrandingImage | undefined): StoredImage | null {
  if (!row) return null;
  const { fileName, originalName, contentType, size, uploadedAt } = row;
  const version = imageVersion(uploadedAt);
  const variants = (row.variants ? (JSON.parse(row.variants) as ImageVariant[]) : []).map(
    (variant) => ({
      ...variant,
      url: `${IMAGE_PATHS[row.kind]}/${variant.name}?v=${version}`,
    }),
  );
  return {
    fileName,
    originalName,
    contentType,
    size,
    uploadedAt,
    url: `${IMAGE_PATHS[row.kind]}?v=${version}`,
    variants,
  };
}

/** The WebP variant closest above `width` (the largest when none is), for a screen that shows one image. */
function displayVariant(image: StoredImage | null, width: number): string | null {
  const webp = image?.variants.filter((variant) => variant.format === 'webp') ?? [];
  return (webp.find((variant) => variant.width >= width) ?? webp.at(-1))?.url ?? null;
}

const DEFAULT_BRANDING: Branding = {
  logo: null,
  background: null,
  cardOpacity: CARD_OPACITY_DEFAULT,
};

function logoInfoOf({ logo }: Branding): LogoInfo {
  return {
    hasLogo: logo !== null,
    logoPath:
      sizeFilling(logo?.variants.filter((variant) => variant.format === 'webp') ?? [], {
        width: LOGO_BOXES.signIn.width * 2,
        height: LOGO_BOXES.signIn.height * 2,
      })?.url ?? null,
    originalPath: logo?.url ?? null,
    originalName: logo?.originalName ?? null,
    size: logo?.size ?? null,
    uploadedAt: logo?.uploadedAt.toISOString() ?? null,
  };
}

function backgroundInfoOf({ background, cardOpacity }: Branding): BackgroundInfo {
  return {
    hasBackground: background !== null,
    backgroundPath: displayVariant(background, 1280),
    originalPath: background?.url ?? null,
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
  log: Logger;
}

export class BrandingStore {
  private current: { branding: Promise<Branding>; readAt: number } | undefined;
  private writes: Promise<unknown> = Promise.resolve();

  constructor(private readonly deps: BrandingDeps) {}

  /** What the layouts show; read from the database at most once a second. */
  read(): Promise<Branding> {
    if (this.current && performance.now() - this.current.readAt < RECENT_ROWS_MAX_AGE_MS)
      return this.current.branding;
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
      this.deps.log.error(
        { component: 'branding', err: error },
        'Reading the logo and background failed',
      );
      return DEFAULT_BRANDING;
    }
  }

  async readLogoInfo(): Promise<LogoInfo> {
    return logoInfoOf(await this.read());
  }

  async saveLogo(actor: AuditActor, image: NewImage): Promise<LogoInfo> {
    return logoInfoOf(
      await this.replaceImage(actor, 'logo', image, await this.prepareVariants('logo', image)),
    );
  }

  async deleteLogo(actor: AuditActor): Promise<LogoInfo> {
    return logoInfoOf(await this.removeImage(actor, 'logo'));
  }

  async readBackgroundInfo(): Promise<BackgroundInfo> {
    return backgroundInfoOf(await this.read());
  }

  async saveBackground(actor: AuditActor, image: NewImage): Promise<BackgroundInfo> {
    return backgroundInfoOf(
      await this.replaceImage(
        actor,
        'background',
        image,
        await this.prepareVariants('background', image),
      ),
    );
  }

  async deleteBackground(actor: AuditActor): Promise<BackgroundInfo> {
    return backgroundInfoOf(await this.removeImage(actor, 'background'));
  }

  /** `opacity` has passed the shared rule (opacityPayloadSchema); it is stored exactly on its step. */
  setCardOpacity(actor: AuditActor, opacity: number): Promise<BackgroundInfo> {
    return this.exclusive(async () => {
      const previous = (await this.reload()).cardOpacity;
      const cardOpacity = roundCardOpacity(opacity);
      const { db } = this.deps;
      await db.sequelize.transaction(async (transaction) => {
        await db.models.BrandingSettings.upsert({ id: 1, cardOpacity }, { transaction });
        await recordAudit(
          this.deps,
          actor,
          {
            action: 'branding.opacity-changed',
            target: 'card opacity',
            detail: { from: previous, to: cardOpacity },
          },
          transaction,
        );
      });
      return backgroundInfoOf(await this.reload());
    });
  }

  /** The original upload of the logo or background, or null when there is none (or its file is missing). */
  async openImage(kind: BrandingImageKind, version: string | null): Promise<ImageFile | null> {
    const image = await this.imageOfVersion(kind, version);
    return (
      image &&
      this.openFile(
        image.fileName,
        image.originalName,
        image.contentType,
        version === imageVersion(image.uploadedAt),
      )
    );
  }

  /** One of the sizes pages send (`800.avif`), or null when the image has no such variant. */
  async openVariant(
    kind: BrandingImageKind,
    name: string,
    version: string | null,
  ): Promise<ImageFile | null> {
    const image = await this.imageOfVersion(kind, version);
    const variant = image?.variants.find((candidate) => candidate.name === name);
    return variant
      ? this.openFile(
          variant.fileName,
          variant.name,
          VARIANT_CONTENT_TYPES[variant.format],
          version === imageVersion(image!.uploadedAt),
        )
      : null;
  }

  /**
   * Start-up: makes the variants of an image uploaded before pages were sent variants. Each is made
   * once: the variants are recorded with the image. A failure is logged; the portal starts all the same.
   */
  async makeMissingVariants(): Promise<void> {
    const { BrandingImage } = this.deps.db.models;
    for (const row of await BrandingImage.findAll({ where: { variants: null } })) {
      const image = toStoredImage(row)!;
      try {
        const variants = await makeVariants(
          this.pathOf(image.fileName),
          this.deps.config.uploadsDir,
          stemOf(image.fileName),
          PLANS[row.kind],
        );
        const [updated] = await BrandingImage.update(
          { variants: JSON.stringify(variants) },
          { where: { kind: row.kind, fileName: row.fileName } },
        );
        // Replaced meanwhile (another process, an upload): these files belong to nothing.
        if (updated === 0) await removeVariants(this.deps.config.uploadsDir, variants);
        else
          this.deps.log.info(
            { component: 'startup' },
            `Made the ${row.kind}'s ${variants.length} sizes for screens from the image uploaded before.`,
          );
      } catch (error) {
        this.deps.log.error(
          { component: 'startup', err: error },
          `The ${row.kind}'s sizes for screens could not be made; pages show none until it is uploaded again`,
        );
      }
    }
    this.current = undefined;
  }

  private async imageOfVersion(
    kind: BrandingImageKind,
    version: string | null,
  ): Promise<StoredImage | null> {
    const image = (await this.read())[kind];
    // A later version than this process knows was uploaded through another process.
    if (Number(version) > (image?.uploadedAt.getTime() ?? 0)) return (await this.reload())[kind];
    return image;
  }

  private async openFile(
    fileName: string,
    name: string,
    contentType: string,
    current: boolean,
  ): Promise<ImageFile | null> {
    // An open file stays readable even if a new upload removes it meanwhile.
    let handle: FileHandle;
    try {
      handle = await open(this.pathOf(fileName));
    } catch {
      return null;
    }
    const { size } = await handle.stat();
    return {
      body: Readable.toWeb(handle.createReadStream()) as ReadableStream<Uint8Array>,
      contentType,
      size,
      name,
      current,
    };
  }

  private pathOf(fileName: string): string {
    return path.join(this.deps.config.uploadsDir, fileName);
  }

  /** The upload's variants; an image that cannot be made into them is refused (400) and its file removed. */
  private async prepareVariants(kind: BrandingImageKind, image: NewImage): Promise<ImageVariant[]> {
    try {
      return await makeVariants(
        this.pathOf(image.fileName),
        this.deps.config.uploadsDir,
        stemOf(image.fileName),
        PLANS[kind],
      );
    } catch (error) {
      await this.removeFile(image.fileName);
      if (error instanceof ImageTooLargeError) {
        throw new AppError(
          'VALIDATION_ERROR',
          m.upload_image_too_large({
            width: String(error.width),
            height: String(error.height),
            max: String(MAX_IMAGE_PIXELS / 1_000_000),
          }),
        );
      }
      if (error instanceof ImageUnreadableError)
        throw new AppError('VALIDATION_ERROR', m.upload_image_unreadable());
      throw error;
    }
  }

  private async load(): Promise<Branding> {
    const { BrandingImage, BrandingSettings } = this.deps.db.models;
    const [images, settings] = await Promise.all([
      BrandingImage.findAll(),
      BrandingSettings.findByPk(1),
    ]);
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
    return rm(this.pathOf(fileName), { force: true });
  }

  private async removeFiles({
    fileName,
    variants,
  }: {
    fileName: string;
    variants: readonly ImageVariant[];
  }): Promise<void> {
    await Promise.all([
      this.removeFile(fileName),
      removeVariants(this.deps.config.uploadsDir, variants),
    ]);
  }

  /** Records the new files, then removes those they replace; if the record fails, the new files go. */
  private replaceImage(
    actor: AuditActor,
    kind: BrandingImageKind,
    image: NewImage,
    variants: ImageVariant[],
  ): Promise<Branding> {
    return this.exclusive(async () => {
      // Read afresh: another process may have replaced the image within the last second.
      const previous = (await this.reload())[kind];
      const { db, clock } = this.deps;
      try {
        await db.sequelize.transaction(async (transaction) => {
          await db.models.BrandingImage.upsert(
            {
              kind,
              ...image,
              uploadedAt: new Date(clock.now()),
              variants: JSON.stringify(variants),
            },
            { transaction },
          );
          const detail = {
            fileName: image.originalName,
            contentType: image.contentType,
            bytes: image.size,
          };
          await recordAudit(
            this.deps,
            actor,
            { action: AUDIT_ACTIONS[kind].changed, target: kind, detail },
            transaction,
          );
        });
      } catch (error) {
        await this.removeFiles({ fileName: image.fileName, variants });
        throw error;
      }
      const branding = await this.reload();
      if (previous) await this.removeFiles(previous);
      return branding;
    });
  }

  private removeImage(actor: AuditActor, kind: BrandingImageKind): Promise<Branding> {
    return this.exclusive(async () => {
      const previous = (await this.reload())[kind];
      if (!previous) throw new AppError('NOT_FOUND', NOTHING_TO_DELETE[kind]());
      const { db } = this.deps;
      await db.sequelize.transaction(async (transaction) => {
        await db.models.BrandingImage.destroy({ where: { kind }, transaction });
        await recordAudit(
          this.deps,
          actor,
          {
            action: AUDIT_ACTIONS[kind].removed,
            target: kind,
            detail: { fileName: previous.originalName },
          },
          transaction,
        );
      });
      const branding = await this.reload();
      await this.removeFiles(previous);
      return branding;
    });
  }
}

export interface ImageFile {
  body: ReadableStream<Uint8Array>;
  contentType: string;
  size: number;
  /** The name to save it under: the uploaded name for the original, the variant's own name otherwise. */
  name: string;
  /** Whether `version` names the stored file: only then may the answer be cached for good. */
  current: boolean;
}
