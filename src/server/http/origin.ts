/**
 * Cross-site request refusal. Like Astro's origin check, a form-like or body-less unsafe request must
 * come from our own origin; the origin may be the request's or PUBLIC_URL's (behind a proxy they
 * differ), and an unsafe request naming any other origin is refused whatever its content type.
 */
const SAFE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);
const FORM_LIKE = ['application/x-www-form-urlencoded', 'multipart/form-data', 'text/plain'];

export function isCrossSiteRequest(
  request: Request,
  requestOrigin: string,
  publicOrigin: string,
): boolean {
  if (SAFE_METHODS.has(request.method)) return false;
  const origin = request.headers.get('origin');
  const ownOrigin = origin === requestOrigin || origin === publicOrigin;
  if (origin !== null && !ownOrigin) return true;
  const contentType = request.headers.get('content-type')?.toLowerCase();
  const formLike =
    contentType === undefined || FORM_LIKE.some((type) => contentType.includes(type));
  return formLike && !ownOrigin;
}
