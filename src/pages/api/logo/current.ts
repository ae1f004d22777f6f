import { requireRole } from '~/server/http/guard';
import { handle, ok } from '~/server/http/respond';
import { deleteLogo } from '~/server/services/branding';
import { m } from '~/paraglide/messages.js';

export const DELETE = handle(async (context) => {
  requireRole(context, 'admin');
  return ok(await deleteLogo(), { message: m.branding_logo_deleted() });
});
