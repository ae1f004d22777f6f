import { requireRole } from '~/server/http/guard';
import { handle, ok } from '~/server/http/respond';
import { deleteBackground } from '~/server/services/branding';
import { BACKGROUND_TEXTS } from '~/shared/branding';

export const DELETE = handle(async (context) => {
  requireRole(context, 'admin');
  return ok(await deleteBackground(), { message: BACKGROUND_TEXTS.deleted });
});
