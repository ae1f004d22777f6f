/**
 * A JSON answer kept with its compressed forms, for an answer sent again unchanged: it is serialized
 * and compressed once rather than on every request. Compression matches server.mjs (brotli quality 4,
 * gzip), which leaves an answer that already carries a Content-Encoding alone.
 */
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import Negotiator from 'negotiator';

const ENCODINGS = ['br', 'gzip', 'identity'];
const BROTLI_OPTIONS = { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } };

export class EncodedJson {
  private brotli: Uint8Array<ArrayBuffer> | undefined;
  private gzip: Uint8Array<ArrayBuffer> | undefined;

  constructor(private readonly text: string) {}

  response(request: Request, headers: Record<string, string>): Response {
    const encoding = new Negotiator({ headers: { 'accept-encoding': request.headers.get('accept-encoding') ?? undefined } }).encoding(ENCODINGS);
    const vary = { ...headers, Vary: 'Accept-Encoding' };
    if (encoding === 'br') return new Response((this.brotli ??= new Uint8Array(brotliCompressSync(this.text, BROTLI_OPTIONS))), { headers: { ...vary, 'Content-Encoding': 'br' } });
    if (encoding === 'gzip') return new Response((this.gzip ??= new Uint8Array(gzipSync(this.text))), { headers: { ...vary, 'Content-Encoding': 'gzip' } });
    return new Response(this.text, { headers: vary });
  }
}
