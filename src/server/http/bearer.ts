/** Bearer credentials: a machine's token for /metrics, and what a request names as its bearer token. */
import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (text: string) => createHash('sha256').update(text).digest();

export function hasBearerToken(request: Request, expected: string): boolean {
  const match = /^Bearer ([^\s]+)$/i.exec(request.headers.get('authorization') ?? '');
  // Digests of equal length: the comparison takes as long whatever was sent.
  return timingSafeEqual(digest(match?.[1] ?? ''), digest(expected)) && match !== null;
}

/**
 * The credential of an `Authorization: Bearer …` header (empty when the header names none), or null
 * when the request sends no bearer credential at all: a malformed one is still an attempt, to refuse.
 */
export function readBearerCredential(request: Request): string | null {
  const match = /^Bearer(?:\s+(.*))?$/i.exec(request.headers.get('authorization')?.trim() ?? '');
  return match ? (match[1]?.trim() ?? '') : null;
}
