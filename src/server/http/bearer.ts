/** The bearer token of a machine's request (Prometheus scraping /metrics), compared in constant time. */
import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (text: string) => createHash('sha256').update(text).digest();

export function hasBearerToken(request: Request, expected: string): boolean {
  const match = /^Bearer ([^\s]+)$/i.exec(request.headers.get('authorization') ?? '');
  // Digests of equal length: the comparison takes as long whatever was sent.
  return timingSafeEqual(digest(match?.[1] ?? ''), digest(expected)) && match !== null;
}
