/** Access rules an endpoint states in its first line; pages get theirs from the middleware's table. */
import type { APIContext } from 'astro';
import type { Role } from '~/shared/constants';
import type { SessionUser } from '~/shared/validation';
import { m } from '~/paraglide/messages.js';
import { AppError } from '../errors';

type Context = Pick<APIContext, 'locals'>;

export function requireUser(context: Context): SessionUser {
  const { user } = context.locals;
  if (!user) throw new AppError('AUTHENTICATION_ERROR', m.error_authentication_required());
  return user;
}

export function requireRole(context: Context, ...roles: Role[]): SessionUser {
  const user = requireUser(context);
  if (!roles.includes(user.role)) throw new AppError('FORBIDDEN', m.error_forbidden());
  return user;
}

/** `staff`: admins and admin-viewers, who both see every customer's receipts. */
export type PageAccess = 'public' | 'user' | 'staff' | 'admin';

/** Which pages need what: the first matching prefix wins, everything else needs a signed-in user. */
const PAGE_ACCESS: ReadonlyArray<readonly [prefix: string, access: PageAccess]> = [
  ['/login', 'public'],
  ['/logout', 'public'],
  ['/language', 'public'],
  // Opened from an e-mail, signed out: the token in the link is the authority.
  ['/forgot-password', 'public'],
  ['/reset-password', 'public'],
  ['/invite', 'public'],
  // The service worker's "needs a connection" page, and what phones read to add the portal to their home screen.
  ['/offline', 'public'],
  ['/manifest.webmanifest', 'public'],
  // Opened from an e-mail; the signed token in the link is the authority.
  ['/email/unsubscribe', 'public'],
  // A receipt's share link, opened by anyone: the token in the link is the authority.
  ['/t', 'public'],
  // The sandbox stands in for the forwarder's own logistics software, where only staff sign in: its
  // consent page, which hands out codes for every consignee's data, is for the portal's admins.
  ['/sandbox/oauth/authorize', 'admin'],
  // Its token, data and control calls come from servers, which authenticate as OAuth2 clients.
  ['/sandbox', 'public'],
  ['/.well-known/oauth-authorization-server/sandbox', 'public'],
  // The audit trail is read by admin-viewers too; it changes nothing.
  ['/admin/activity', 'staff'],
  // So are the pre-alerts' lists; only admins match and unmatch (the page offers them no forms).
  ['/admin/prealerts', 'staff'],
  ['/admin', 'admin'],
];

/** Whether a signed-in user of this role may open a page of this access. */
export function mayOpen(access: PageAccess, role: Role): boolean {
  if (access === 'admin') return role === 'admin';
  if (access === 'staff') return role !== 'viewer';
  return true;
}

export function pageAccess(pathname: string): PageAccess {
  for (const [prefix, access] of PAGE_ACCESS) {
    if (pathname === prefix || pathname.startsWith(`${prefix}/`)) return access;
  }
  return 'user';
}
