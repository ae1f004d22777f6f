/**
 * Real file bytes for the upload tests: small valid JPEG, GIF and WebP images, PNGs built here
 * (optionally padded to an exact size with a text chunk, still valid), and files that only pretend.
 */
import { crc32, deflateSync } from 'node:zlib';

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
}: { width?: number; height?: number; rgb?: [number, number, number]; size?: number } = {}): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: width }, () => rgb).flat())]);
  const pixels = deflateSync(Buffer.concat(Array.from({ length: height }, () => row)));
  const head = Buffer.concat([PNG_SIGNATURE, pngChunk('IHDR', header), pngChunk('IDAT', pixels)]);
  const end = pngChunk('IEND', Buffer.alloc(0));
  if (size === undefined) return Buffer.concat([head, end]);
  const padding = size - head.length - end.length - TEXT_CHUNK_OVERHEAD;
  if (padding < 0) throw new Error(`a PNG cannot be as small as ${size} bytes`);
  const text = pngChunk('tEXt', Buffer.concat([Buffer.from('Comment\0', 'latin1'), Buffer.alloc(padding, 'x')]));
  return Buffer.concat([head, text, end]);
}

/** 2×2, encoded by Chromium (its colour profile removed). */
export const JPEG_IMAGE = Buffer.from(
  '/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAYEBQYFBAYGBQYHBwYIChAKCgkJChQODwwQFxQYGBcUFhYaHSUfGhsjHBYWICwgIyYnKSopGR8tMC0oMCUoKSj/2wBDAQcHBwoIChMKChMoGhYaKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCj/wAARCAACAAIDASIAAhEBAxEB/8QAFQABAQAAAAAAAAAAAAAAAAAAAAb/xAAUEAEAAAAAAAAAAAAAAAAAAAAA/8QAFQEBAQAAAAAAAAAAAAAAAAAABgf/xAAUEQEAAAAAAAAAAAAAAAAAAAAA/9oADAMBAAIRAxEAPwCXAUUYf//Z',
  'base64',
);
/** 1×1 transparent. */
export const GIF_IMAGE = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
/** 1×1 lossless. */
export const WEBP_IMAGE = Buffer.from('UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==', 'base64');

/** An SVG is an image to a browser, and can carry script: never accepted. */
export const SVG_FILE: UploadFile = {
  bytes: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(document.cookie)</script></svg>'),
  name: 'logo.svg',
  type: 'image/svg+xml',
};

/** A page dressed as a PNG by its name and declared type. */
export const HTML_AS_PNG_FILE: UploadFile = {
  bytes: Buffer.from('<!doctype html><html><body><script>alert(document.cookie)</script></body></html>'),
  name: 'logo.png',
  type: 'image/png',
};

export const TEXT_FILE: UploadFile = { bytes: Buffer.from('Just some notes, not a picture.\n'), name: 'notes.txt', type: 'text/plain' };

export const pngFile = (name: string, options?: Parameters<typeof pngImage>[0]): UploadFile => ({ bytes: pngImage(options), name, type: 'image/png' });
