import { parseId } from '~/server/http/body';
import { requireRole } from '~/server/http/guard';
import { handle, ok } from '~/server/http/respond';
import { removeUserFromConsignee } from '~/server/services/assignments';

export const DELETE = handle(async (context) => {
  requireRole(context, 'admin');
  const consigneeId = parseId(context.params.consigneeId, 'Consignee');
  const userId = parseId(context.params.userId, 'User');
  return ok(await removeUserFromConsignee(consigneeId, userId), { message: 'User removed from consignee' });
});
