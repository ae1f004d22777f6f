/**
 * The profile the sign-in form keeps in localStorage lives no longer than the session: a page rendered
 * without one carries a script that removes it (BareLayout.astro), and its policy allows that script.
 */
import { FORGET_STORED_USER_SCRIPT } from '~/shared/constants';
import { OFFLINE_PAGE } from '~/shared/offline-cache';
import type { SessionUser } from '~/shared/validation';
import { inlineHash } from './csp';

/** The CSP source that allows exactly the script. */
export const FORGET_STORED_USER_SOURCE = `'${inlineHash(FORGET_STORED_USER_SCRIPT)}'`;

/** The offline page is shown from the service worker's cache whoever is signed in: it leaves the profile alone. */
export function forgetsStoredUser(user: SessionUser | null | undefined, pathname: string): boolean {
  return !user && pathname !== OFFLINE_PAGE;
}
