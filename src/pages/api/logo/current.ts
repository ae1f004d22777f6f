import { requireRole } from '~/server/http/guard';
import { handle, ok } from '~/server/http/respond';
import { deleteLogo } from '~/server/services/branding';
import { LOGO_TEXTS } from '~/shared/branding';

export const DELETE = handle(async (context) => {
  requireRole(context, 'admin');
  return ok(await deleteLogo(), { message: LOGO_TEXTS.deleted });
});
