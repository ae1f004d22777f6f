/**
 * Answering with a receipt's attachment: the type its bytes were found to be, never sniffed; shown in the
 * page when it is an image, else saved under its file name. The bytes under an attachment's URL never
 * change (src/server/services/attachments.ts), so the user's browser keeps them, and no one else's cache.
 */
import type { AttachmentFile } from '../services/attachments';
import { contentDisposition } from './images';

const YEAR_SECONDS = 31_536_000;

/** Whether If-None-Match names the ETag (or any: `*`). */
export function matchesEtag(ifNoneMatch: string | null, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .some((tag) => tag === '*' || tag === etag);
}

export function attachmentResponse(file: AttachmentFile, request: Request): Response {
  const headers = new Headers({
    'Content-Type': file.contentType,
    'X-Content-Type-Options': 'nosniff',
    'Content-Disposition': contentDisposition(file.fileName, file.inline ? 'inline' : 'attachment'),
    'Cache-Control': `private, max-age=${YEAR_SECONDS}, immutable`,
    ETag: file.etag,
  });
  if (matchesEtag(request.headers.get('if-none-match'), file.etag)) {
    void file.body.cancel();
    return new Response(null, { status: 304, headers });
  }
  headers.set('Content-Length', String(file.size));
  return new Response(file.body, { headers });
}
