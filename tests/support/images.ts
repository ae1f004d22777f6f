/**
 * Real file bytes for the upload tests: small valid JPEG, GIF and WebP images, PNGs built here
 * (optionally padded to an exact size with a text chunk, still valid), a camera's photo with its EXIF
 * data, an animated GIF, decompression bombs, and files that only pretend.
 */
import { crc32, createDeflate, deflateSync } from 'node:zlib';
import sharp from 'sharp';

export interface UploadFile {
  bytes: Buffer;
  name: string;
  /** The type the sender declares; the server decides by the bytes. */
  type: string;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const typeAndData = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const checksum = Buffer.alloc(4);
  checksum.writeUInt32BE(crc32(typeAndData));
  return Buffer.concat([length, typeAndData, checksum]);
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** A tEXt chunk's framing: length, type, CRC, and the keyword with its NUL separator. */
const TEXT_CHUNK_OVERHEAD = 12 + 'Comment\0'.length;

/**
 * A valid RGB PNG of one colour. With `size`, an ancillary tEXt chunk pads it to exactly that many
 * bytes; decoders skip such a chunk, so the image stays as valid as before.
 */
export function pngImage({
  width = 4,
  height = 4,
  rgb = [51, 102, 204],
  size,
}: {
  width?: number;
  height?: number;
  rgb?: [number, number, number];
  size?: number;
} = {}): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.concat([
    Buffer.from([0]),
    Buffer.from(Array.from({ length: width }, () => rgb).flat()),
  ]);
  const pixels = deflateSync(Buffer.concat(Array.from({ length: height }, () => row)));
  const head = Buffer.concat([PNG_SIGNATURE, pngChunk('IHDR', header), pngChunk('IDAT', pixels)]);
  const end = pngChunk('IEND', Buffer.alloc(0));
  if (size === undefined) return Buffer.concat([head, end]);
  const padding = size - head.length - end.length - TEXT_CHUNK_OVERHEAD;
  if (padding < 0) throw new Error(`a PNG cannot be as small as ${size} bytes`);
  const text = pngChunk(
    'tEXt',
    Buffer.concat([Buffer.from('Comment\0', 'latin1'), Buffer.alloc(padding, 'x')]),
  );
  return Buffer.concat([head, text, end]);
}

/** 2×2, encoded by Chromium (its colour profile removed). */
export const JPEG_IMAGE = Buffer.from(
  '/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAYEBQYFBAYGBQYHBwYIChAKCgkJChQODwwQFxQYGBcUFhYaHSUfGhsjHBYWICwgIyYnKSopGR8tMC0oMCUoKSj/2wBDAQcHBwoIChMKChMoGhYaKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCj/wAARCAACAAIDASIAAhEBAxEB/8QAFQABAQAAAAAAAAAAAAAAAAAAAAb/xAAUEAEAAAAAAAAAAAAAAAAAAAAA/8QAFQEBAQAAAAAAAAAAAAAAAAAABgf/xAAUEQEAAAAAAAAAAAAAAAAAAAAA/9oADAMBAAIRAxEAPwCXAUUYf//Z',
  'base64',
);
/** 1×1 transparent. */
export const GIF_IMAGE = Buffer.from(
  'R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7',
  'base64',
);
/** 1×1 lossless. */
export const WEBP_IMAGE = Buffer.from('UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==', 'base64');

/** An SVG is an image to a browser, and can carry script: never accepted. */
export const SVG_FILE: UploadFile = {
  bytes: Buffer.from(
    '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(document.cookie)</script></svg>',
  ),
  name: 'logo.svg',
  type: 'image/svg+xml',
};

/** A page dressed as a PNG by its name and declared type. */
export const HTML_AS_PNG_FILE: UploadFile = {
  bytes: Buffer.from(
    '<!doctype html><html><body><script>alert(document.cookie)</script></body></html>',
  ),
  name: 'logo.png',
  type: 'image/png',
};

export const TEXT_FILE: UploadFile = {
  bytes: Buffer.from('Just some notes, not a picture.\n'),
  name: 'notes.txt',
  type: 'text/plain',
};

export const pngFile = (name: string, options?: Parameters<typeof pngImage>[0]): UploadFile => ({
  bytes: pngImage(options),
  name,
  type: 'image/png',
});

/**
 * A photo as a camera writes it: smooth colour with fine grain, JPEG quality 85 (about 2 MB at the
 * default 3000 × 2000), and EXIF data with the camera's make, a GPS position (its map datum the marker
 * `WGS-84`) and an orientation (6: the camera was held upright, the pixels lie on their side).
 */
export async function cameraPhoto({
  width = 3000,
  height = 2000,
  orientation = 1,
} = {}): Promise<Buffer> {
  const pixels = Buffer.alloc(width * height * 3);
  let seed = 7;
  const grain = () =>
    ((seed = (seed * 1_103_515_245 + 12_345) & 0x7fffffff) / 0x7fffffff - 0.5) * 60;
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const index = (y * width + x) * 3;
      const noise = grain();
      pixels[index] = Math.max(0, Math.min(255, 120 + 100 * Math.sin(x / 170) + noise));
      pixels[index + 1] = Math.max(0, Math.min(255, 110 + 90 * Math.cos(y / 130) + noise));
      pixels[index + 2] = Math.max(0, Math.min(255, 140 + 80 * Math.sin((x + y) / 250) + noise));
    }
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 85 })
    .withMetadata({ orientation })
    .withExifMerge({
      IFD0: { Make: 'Canon', Model: 'EOS R6' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '5/1 49/1 0/1', GPSMapDatum: 'WGS-84' },
    })
    .toBuffer();
}

/** A GIF of two frames (red, then blue), `width` × `height` each. */
export async function animatedGif(width = 40, height = 20): Promise<Buffer> {
  const frames = await Promise.all(
    [
      { r: 255, g: 0, b: 0 },
      { r: 0, g: 0, b: 255 },
    ].map((colour) =>
      sharp({ create: { width, height, channels: 3, background: colour } })
        .png()
        .toBuffer(),
    ),
  );
  return sharp(frames, { join: { animated: true } })
    .gif()
    .toBuffer();
}

/** Each size of largePng is built once in a test process: deflating a large one takes seconds of CPU. */
const largePngs = new Map<string, Promise<Buffer>>();

/**
 * A valid PNG of `width` × `height` black pixels. Deflate shrinks rows of zeros about a thousandfold:
 * 15,000 × 15,000 (225 megapixels, 675 MB to decode) is a file of some 650 KB, a decompression bomb.
 */
export function largePng(width: number, height: number): Promise<Buffer> {
  const key = `${width}x${height}`;
  let png = largePngs.get(key);
  if (!png) largePngs.set(key, (png = deflatedPng(width, height)));
  return png;
}

/** Rows handed to the deflate stream at a time: one at a time, its calls cost more than the deflating. */
const ROWS_PER_WRITE = 100;

async function deflatedPng(width: number, height: number): Promise<Buffer> {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const deflate = createDeflate({ level: 9 });
  const compressed: Buffer[] = [];
  deflate.on('data', (chunk: Buffer) => compressed.push(chunk));
  const ended = new Promise((resolve) => deflate.on('end', resolve));
  const rowBytes = 1 + width * 3;
  const rows = Buffer.alloc(rowBytes * ROWS_PER_WRITE);
  for (let y = 0; y < height; y += ROWS_PER_WRITE) {
    const chunk = rows.subarray(0, rowBytes * Math.min(ROWS_PER_WRITE, height - y));
    if (!deflate.write(chunk)) await new Promise((resolve) => deflate.once('drain', resolve));
  }
  deflate.end();
  await ended;
  return Buffer.concat([
    PNG_SIGNATURE,
    pngChunk('IHDR', header),
    pngChunk('IDAT', Buffer.concat(compressed)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A PNG whose header is sound and whose pixel data is not: its format is detected, its pixels cannot be decoded. */
export function brokenPng(): Buffer {
  const valid = pngImage({ width: 64, height: 64 });
  const header = valid.subarray(0, PNG_SIGNATURE.length + 25);
  return Buffer.concat([
    header,
    pngChunk('IDAT', Buffer.from('not deflate data at all')),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}
