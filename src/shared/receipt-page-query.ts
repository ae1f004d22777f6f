/** The receipt list's query as the /receipts page URL carries it (a shared link, a reload). */
import { readReceiptQuery, type ReceiptQuery } from './receipts';

/** Reads the list query; a value the schema refuses falls back to its default while the others are kept. */
export function readReceiptPageQuery(params: URLSearchParams): ReceiptQuery {
  const read = readReceiptQuery(params);
  if (read.success) return read.data;
  const kept = new URLSearchParams(params);
  for (const issue of read.error.issues) kept.delete(String(issue.path[0]));
  return readReceiptQuery(kept).data ?? readReceiptQuery(new URLSearchParams()).data!;
}
