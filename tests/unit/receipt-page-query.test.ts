import { describe, expect, it } from 'vitest';
import { readReceiptPageQuery } from '~/shared/receipt-page-query';

const DEFAULTS = {
  page: 1,
  limit: 20,
  sortBy: 'receivedDate',
  sortOrder: 'desc',
  search: undefined,
  trackingNumber: undefined,
};
const read = (search: string) => readReceiptPageQuery(new URLSearchParams(search));

describe('readReceiptPageQuery (the /receipts page URL)', () => {
  it('when the URL has no query, then the defaults', () => {
    expect(read('')).toEqual(DEFAULTS);
  });

  it('when every value is good, then all of them', () => {
    expect(
      read('page=3&sortBy=shipperName&sortOrder=asc&search=Amazon&trackingNumber=1Z999AA10123'),
    ).toEqual({
      ...DEFAULTS,
      page: 3,
      sortBy: 'shipperName',
      sortOrder: 'asc',
      search: 'Amazon',
      trackingNumber: '1Z999AA10123',
    });
  });

  it('when some values are bad, then those fall back to their defaults and the others are kept', () => {
    expect(
      read('page=zero&sortBy=password&sortOrder=asc&search=Miami&trackingNumber=short'),
    ).toEqual({
      ...DEFAULTS,
      sortOrder: 'asc',
      search: 'Miami',
    });
  });
});
