import { requireRole } from '~/server/http/guard';
import { handle, ok } from '~/server/http/respond';
import { clearTokens } from '~/server/services/tokens';

export const DELETE = handle(async (context) => {
  requireRole(context, 'admin');
  await clearTokens();
  return ok(null, { message: 'All tokens cleared successfully' });
});
