import { parseQuery } from '~/server/http/body';
import { requireUser } from '~/server/http/guard';
import { handle, okPage } from '~/server/http/respond';
import { listReceipts } from '~/server/services/receipts';
import { receiptQuerySchema } from '~/shared/receipts';

export const GET = handle(async (context) => {
  const user = requireUser(context);
  const query = parseQuery(context.url, receiptQuerySchema);
  return okPage(await listReceipts(user, query), context.request);
});
