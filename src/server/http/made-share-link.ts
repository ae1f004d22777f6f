/**
 * The receipt page's "Share" is a plain form: its POST makes the link and redirects to the page
 * (POST/redirect/GET), so a reload makes no other. The new address rides to that GET in a cookie of the
 * receipt's path, read once: the portal keeps only the link's hash, so the address is shown this once.
 */
import type { AstroCookies } from 'astro';
import { createdShareLinkSchema, type CreatedShareLink } from '~/shared/share-links';

const MADE_LINK_COOKIE = 'portal_share_link';
const MADE_LINK_MAX_AGE_SECONDS = 60;
const cookieOptions = (path: string, secure: boolean) =>
  ({ path, httpOnly: true, sameSite: 'strict', secure }) as const;

export function leaveMadeShareLink(
  cookies: AstroCookies,
  receiptPath: string,
  link: CreatedShareLink,
  secure: boolean,
): void {
  cookies.set(MADE_LINK_COOKIE, JSON.stringify(link), {
    ...cookieOptions(receiptPath, secure),
    maxAge: MADE_LINK_MAX_AGE_SECONDS,
  });
}

/** The link made by the POST before this page's load, taken once; null when there is none. */
export function takeMadeShareLink(
  cookies: AstroCookies,
  receiptPath: string,
  secure: boolean,
): CreatedShareLink | null {
  const value = cookies.get(MADE_LINK_COOKIE)?.value;
  if (value === undefined) return null;
  cookies.delete(MADE_LINK_COOKIE, cookieOptions(receiptPath, secure));
  try {
    const parsed = createdShareLinkSchema.safeParse(JSON.parse(value));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
