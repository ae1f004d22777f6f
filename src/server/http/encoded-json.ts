/**
 * A JSON answer kept with its compressed forms, for an answer sent again unchanged: it is serialized
 * and compressed once rather than on every request. Compression matches server.mjs (brotli quality 5,
 * gzip), which leaves an answer that already carries a Content-Encoding alone.
 */
import { promisify } from 'node:util';
import { brotliCompress, brotliCompressSync, constants, gzip, gzipSync } from 'node:zlib';
import { LRUCache } from 'lru-cache';
import Negotiator from 'negotiator';

const ENCODINGS = ['br', 'gzip', 'identity'];
/**
 * As compression in server.mjs: of encodings the browser accepts equally (`gzip, deflate, br`),
 * brotli, the smaller.
 */
const PREFERRED_ENCODINGS = ['br', 'gzip'];
const BROTLI_OPTIONS = { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } };
/** negotiator 1.x breaks ties by `{ preferred }`, which @types/negotiator leaves out. */
type EncodingWithPreference = (
  available: readonly string[],
  options: { preferred: readonly string[] },
) => string | undefined;
/** Browsers send one of a handful of Accept-Encoding headers: each is negotiated once. */
export class EncodingChooser {
  private readonly chosen = new LRUCache<string, string>({ max: 64 });

  choose(acceptEncoding: string): string {
    let encoding = this.chosen.get(acceptEncoding);
    if (encoding === undefined) {
      const negotiator = new Negotiator({ headers: { 'accept-encoding': acceptEncoding } });
      encoding =
        (negotiator.encoding as EncodingWithPreference).call(negotiator, ENCODINGS, {
          preferred: PREFERRED_ENCODINGS,
        }) ?? 'identity';
      this.chosen.set(acceptEncoding, encoding);
    }
    return encoding;
  }
}

/**
 * The size below which an answer is sent as it is, as the compressing server (server.mjs, compression's
 * default threshold) leaves it: compressing a few hundred bytes saves next to nothing.
 */
const COMPRESS_FROM_BYTES = 1024;
const brotliCompressAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/**
 * A JSON answer sent once (a list page the read cache did not have). Large enough to compress, it is
 * compressed in one go on the thread pool, in the encoding the request accepts, rather than streamed
 * through the compressing server (server.mjs), whose stream per answer cost the event loop more than
 * the compression itself; the event loop serves other requests meanwhile. Else it is sent as it is,
 * for the compressing server to decide as before.
 */
export async function encodedOnce(
  text: string,
  request: Request,
  headers: Record<string, string>,
  encodings: EncodingChooser,
): Promise<Response> {
  const plain = Buffer.from(text);
  const encoding =
    plain.byteLength < COMPRESS_FROM_BYTES
      ? 'identity'
      : encodings.choose(request.headers.get('accept-encoding') ?? '');
  if (encoding !== 'br' && encoding !== 'gzip')
    return new Response(plain, {
      headers: { ...headers, 'Content-Length': String(plain.byteLength) },
    });
  const body =
    encoding === 'br' ? await brotliCompressAsync(plain, BROTLI_OPTIONS) : await gzipAsync(plain);
  return bytesResponse(
    new Uint8Array(body.buffer as ArrayBuffer, body.byteOffset, body.byteLength),
    encoding,
    headers,
  );
}

/** The answer of these bytes, in `encoding`, with its length. */
function bytesResponse(
  body: Uint8Array<ArrayBuffer>,
  encoding: string,
  headers: Record<string, string>,
): Response {
  const encoded: Record<string, string> =
    encoding === 'br' || encoding === 'gzip' ? { 'Content-Encoding': encoding } : {};
  // With its length the answer goes out in one write rather than in chunks.
  return new Response(bytesStream(body), {
    headers: {
      ...headers,
      ...encoded,
      Vary: 'Accept-Encoding',
      'Content-Length': String(body.byteLength),
    },
  });
}

export class EncodedJson {
  private brotli: Uint8Array<ArrayBuffer> | undefined;
  private gzip: Uint8Array<ArrayBuffer> | undefined;
  private plain: Uint8Array<ArrayBuffer> | undefined;

  constructor(private readonly text: string) {}

  response(
    request: Request,
    headers: Record<string, string>,
    encodings: EncodingChooser,
  ): Response {
    const encoding = encodings.choose(request.headers.get('accept-encoding') ?? '');
    const body =
      encoding === 'br'
        ? (this.brotli ??= new Uint8Array(brotliCompressSync(this.text, BROTLI_OPTIONS)))
        : encoding === 'gzip'
          ? (this.gzip ??= new Uint8Array(gzipSync(this.text)))
          : (this.plain ??= new TextEncoder().encode(this.text));
    return bytesResponse(body, encoding, headers);
  }
}

/**
 * The kept bytes as a body, shared rather than copied: given the bytes themselves, Response copies them
 * into a new buffer for every answer (a byte stream takes its chunks' buffers over). Nothing writes to
 * a chunk it reads, so every answer can read the same bytes.
 */
function bytesStream(bytes: Uint8Array<ArrayBuffer>): ReadableStream<Uint8Array<ArrayBuffer>> {
  return new ReadableStream({
    start(controller) {
      controller.enqueue(bytes);
      controller.close();
    },
  });
}
