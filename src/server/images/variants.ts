/**
 * The sizes and formats pages send of an uploaded image, made once with sharp (libvips): turned upright
 * by its EXIF orientation, every piece of metadata (camera, GPS position) left out, scaled down (never
 * up) to each bound, and written beside the original. A photo gets AVIF, WebP and JPEG; a graphic (a
 * logo) WebP, and PNG (GIF when it moves, JPEG when it is an opaque photo) for browsers without WebP.
 * An image that would decode to more than MAX_IMAGE_PIXELS is refused from its header alone.
 */
import { rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fitInBox, type Box } from '~/shared/branding';
import type { Metadata, Sharp } from 'sharp';

/** sharp (libvips), loaded by the first image made rather than by every start of the server. */
const loadSharp = async () => (await import('sharp')).default;

/** 40 megapixels: a 7,500 × 5,300 photo. More is a decompression bomb, or more than any screen shows. */
export const MAX_IMAGE_PIXELS = 40_000_000;

export type VariantFormat = 'avif' | 'webp' | 'jpeg' | 'png' | 'gif';

export const VARIANT_CONTENT_TYPES: Readonly<Record<VariantFormat, string>> = {
  avif: 'image/avif',
  webp: 'image/webp',
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
};

const EXTENSIONS: Readonly<Record<VariantFormat, string>> = {
  avif: 'avif',
  webp: 'webp',
  jpeg: 'jpg',
  png: 'png',
  gif: 'gif',
};

export interface ImageVariant {
  /** How its URL names it: the width and the extension, `800.avif`. */
  name: string;
  /** Its file beside the original in UPLOADS_DIR. */
  fileName: string;
  width: number;
  height: number;
  format: VariantFormat;
  size: number;
}

/** Each variant's bound: a width (a photo for screens of that width), or a box it fits in (a logo). */
export type VariantPlan = (
  { fit: 'width'; widths: readonly number[] } | { fit: 'box'; boxes: readonly Box[] }
) & {
  /** A photo (AVIF, WebP, JPEG) or a graphic (WebP and a lossless or animated fallback). */
  kind: 'photo' | 'graphic';
};

export class ImageTooLargeError extends Error {
  constructor(
    readonly width: number,
    readonly height: number,
  ) {
    super(`the image is ${width} × ${height} pixels, more than ${MAX_IMAGE_PIXELS}`);
  }
}

export class ImageUnreadableError extends Error {}

/**
 * Encoder settings: AVIF at effort 2 makes a 1,920 px photo in under a second on a small server (the
 * default effort 4 takes several) for a few per cent more bytes; mozjpeg for the JPEG fallback.
 */
const ENCODE = {
  avif: (image: Sharp) => image.avif({ quality: 50, effort: 2 }),
  webp: (image: Sharp) => image.webp({ quality: 72 }),
  jpeg: (image: Sharp) => image.jpeg({ quality: 74, mozjpeg: true }),
  png: (image: Sharp) => image.png({ compressionLevel: 9, palette: true }),
  gif: (image: Sharp) => image.gif(),
} satisfies Record<VariantFormat, (image: Sharp) => Sharp>;

/** The header's size, before anything is decoded; an image over the limit is refused here. */
async function readHeader(source: string): Promise<Metadata> {
  const sharp = await loadSharp();
  let header: Metadata;
  try {
    header = await sharp(source, { animated: true, limitInputPixels: false }).metadata();
  } catch (error) {
    throw new ImageUnreadableError(error instanceof Error ? error.message : String(error));
  }
  const { width, height } = header;
  if (!width || !height) throw new ImageUnreadableError('the image has no size');
  // Animated: `height` is every frame's, stacked; each frame is decoded.
  if (width * height > MAX_IMAGE_PIXELS)
    throw new ImageTooLargeError(width, header.pageHeight ?? height);
  return header;
}

function formatsOf(plan: VariantPlan, header: Metadata, animated: boolean): VariantFormat[] {
  if (plan.kind === 'photo') return ['avif', 'webp', 'jpeg'];
  if (animated) return ['webp', 'gif'];
  return [
    'webp',
    header.hasAlpha || header.format === 'png' || header.format === 'gif' ? 'png' : 'jpeg',
  ];
}

/** The upright size of each variant: each bound applied, never larger than the image, each size once. */
function sizesOf(
  plan: VariantPlan,
  width: number,
  height: number,
): Array<{ width: number; height: number }> {
  const sizes = new Map<number, { width: number; height: number }>();
  const boxes =
    plan.fit === 'box'
      ? plan.boxes
      : plan.widths.map((bound) => ({ width: bound, height: Infinity }));
  for (const box of boxes) {
    const size = fitInBox({ width, height }, box);
    sizes.set(size.width, size);
  }
  return [...sizes.values()].sort((a, b) => a.width - b.width);
}

/** Makes the plan's variants of `source` in `dir`, their files named `<stem>-<width>.<extension>`. */
export async function makeVariants(
  source: string,
  dir: string,
  stem: string,
  plan: VariantPlan,
): Promise<ImageVariant[]> {
  const header = await readHeader(source);
  const sharp = await loadSharp();
  const animated = plan.kind === 'graphic' && (header.pages ?? 1) > 1;
  // EXIF orientations 5 to 8 turn the image a quarter: width and height swap once it is upright.
  const sideways = (header.orientation ?? 1) >= 5;
  const frameHeight = animated ? (header.pageHeight ?? header.height!) : header.height!;
  const [width, height] = sideways ? [frameHeight, header.width!] : [header.width!, frameHeight];
  const variants: ImageVariant[] = [];
  /** Every file begun, the one an encoder failed on included: removed again when one fails. */
  const begun: string[] = [];
  try {
    for (const size of sizesOf(plan, width, height)) {
      for (const format of formatsOf(plan, header, animated)) {
        const fileName = `${stem}-${size.width}.${EXTENSIONS[format]}`;
        begun.push(fileName);
        const image = sharp(source, { animated, limitInputPixels: MAX_IMAGE_PIXELS })
          .rotate()
          .resize({ width: size.width, height: size.height, fit: 'fill' });
        await ENCODE[format](image).toFile(path.join(dir, fileName));
        const { size: bytes } = await stat(path.join(dir, fileName));
        variants.push({
          name: `${size.width}.${EXTENSIONS[format]}`,
          fileName,
          width: size.width,
          height: size.height,
          format,
          size: bytes,
        });
      }
    }
  } catch (error) {
    await removeFiles(dir, begun);
    if (error instanceof ImageTooLargeError) throw error;
    throw new ImageUnreadableError(error instanceof Error ? error.message : String(error));
  }
  return variants;
}

function removeFiles(dir: string, fileNames: readonly string[]): Promise<unknown> {
  return Promise.all(fileNames.map((fileName) => rm(path.join(dir, fileName), { force: true })));
}

export async function removeVariants(
  dir: string,
  variants: readonly ImageVariant[],
): Promise<void> {
  await removeFiles(
    dir,
    variants.map((variant) => variant.fileName),
  );
}

/** A preview's qualities, tried in turn until it fits its byte budget; then it is made smaller. */
export const PREVIEW_QUALITIES = [72, 60, 48, 36] as const;
const PREVIEW_SHRINK = 0.8;
const PREVIEW_MIN_WIDTH = 64;

export interface ImagePreview {
  fileName: string;
  width: number;
  height: number;
  size: number;
}

/**
 * A WebP of `source` fitted into `box` (never enlarged), upright and without metadata, written as
 * `dir/fileName`: what a receipt's photo is shown as. With `maxBytes` it is encoded again at lower
 * qualities, then smaller, until it fits, so that a noisy camera photo costs a list of thumbnails no
 * more than a clean one. An image over MAX_IMAGE_PIXELS is refused from its header, as by makeVariants.
 */
export async function makeWebpPreview(
  source: string,
  dir: string,
  fileName: string,
  { box, maxBytes = Infinity }: { box: Box; maxBytes?: number },
): Promise<ImagePreview> {
  const header = await readHeader(source);
  const sharp = await loadSharp();
  const frameHeight = header.pageHeight ?? header.height!;
  const sideways = (header.orientation ?? 1) >= 5;
  let size = fitInBox(
    sideways
      ? { width: frameHeight, height: header.width! }
      : { width: header.width!, height: frameHeight },
    box,
  );
  try {
    for (;;) {
      let bytes: Buffer | undefined;
      for (const quality of PREVIEW_QUALITIES) {
        bytes = await sharp(source, { limitInputPixels: MAX_IMAGE_PIXELS })
          .rotate()
          .resize({ width: size.width, height: size.height, fit: 'fill' })
          .webp({ quality })
          .toBuffer();
        if (bytes.length <= maxBytes) break;
      }
      if (bytes!.length <= maxBytes || size.width <= PREVIEW_MIN_WIDTH) {
        await writeFile(path.join(dir, fileName), bytes!);
        return { fileName, ...size, size: bytes!.length };
      }
      size = fitInBox(size, {
        width: Math.max(PREVIEW_MIN_WIDTH, Math.floor(size.width * PREVIEW_SHRINK)),
        height: Infinity,
      });
    }
  } catch (error) {
    await rm(path.join(dir, fileName), { force: true });
    throw new ImageUnreadableError(error instanceof Error ? error.message : String(error));
  }
}
