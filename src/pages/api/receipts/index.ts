import { parseQuery } from '~/server/http/body';
import { requireUser } from '~/server/http/guard';
import { handle, okPage } from '~/server/http/respond';
import { listReceipts } from '~/server/services/receipts';
import { receiptQuerySchema } from '~/shared/receipts';

export const GET = handle(async (context) => {
  const user = requireUser(context);
  const query = parseQuery(context, receiptQuerySchema);
  return okPage(context, await listReceipts(context.locals.portal, user, query));
});
