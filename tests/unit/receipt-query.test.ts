import { describe, expect, it } from 'vitest';
import { receiptQueryString } from '~/shared/receipt-query-string';
import { readReceiptQuery, packageSearchQuerySchema } from '~/shared/receipts';

const read = (query: string) => readReceiptQuery(new URLSearchParams(query));
const messages = (query: string) => {
  const result = read(query);
  return result.success ? [] : result.error.issues.map((issue) => issue.message);
};

describe('receipt list query', () => {
  it('falls back to page 1, 20 per page, newest received first', () => {
    expect(read('').data).toEqual({
      page: 1,
      limit: 20,
      sortBy: 'receivedDate',
      sortOrder: 'desc',
      search: undefined,
      trackingNumber: undefined,
    });
  });

  it('treats empty values as absent and trims the search', () => {
    expect(read('page=&search=%20%20&trackingNumber=').data).toMatchObject({
      page: 1,
      search: undefined,
      trackingNumber: undefined,
    });
    expect(read('search=%20Amazon%20').data?.search).toBe('Amazon');
  });

  it('accepts every sort key of the screen and either order in any case', () => {
    for (const key of ['receivedDate', 'number', 'shipperName', 'consigneeName', 'status']) {
      expect(read(`sortBy=${key}&sortOrder=ASC`).data).toMatchObject({
        sortBy: key,
        sortOrder: 'asc',
      });
    }
  });

  it.each([
    ['page=0', 'page must be a whole number from 1 to 1000000'],
    ['page=-1', 'page must be a whole number from 1 to 1000000'],
    ['page=1e3', 'page must be a whole number from 1 to 1000000'],
    ['page=2.5', 'page must be a whole number from 1 to 1000000'],
    ['limit=101', 'limit must be a whole number from 1 to 100'],
    ['limit=abc', 'limit must be a whole number from 1 to 100'],
    [
      'sortBy=password',
      'sortBy must be one of receivedDate, number, shipperName, consigneeName, status, destination, modeOfTransportation, origin',
    ],
    ['sortOrder=sideways', 'sortOrder must be asc or desc'],
    ['trackingNumber=1234567', 'Tracking number must be at least 8 characters'],
    [`trackingNumber=${'9'.repeat(65)}`, 'Tracking number must not exceed 64 characters'],
    [`search=${'a'.repeat(101)}`, 'Search must not exceed 100 characters'],
  ])('refuses %s', (query, message) => {
    expect(messages(query)).toEqual([message]);
  });

  it('requires a tracking number of at least 8 characters for the package look-up', () => {
    expect(packageSearchQuerySchema.safeParse({}).success).toBe(false);
    expect(packageSearchQuerySchema.safeParse({ trackingNumber: ' 1Z999AA1 ' }).data).toEqual({
      trackingNumber: '1Z999AA1',
    });
  });

  it('writes only what differs from the defaults into the query string', () => {
    expect(
      receiptQueryString({ page: 1, limit: 20, sortBy: 'receivedDate', sortOrder: 'desc' }),
    ).toBe('');
    expect(receiptQueryString({ page: 3, sortBy: 'number', sortOrder: 'asc', search: 'a b' })).toBe(
      '?page=3&sortBy=number&sortOrder=asc&search=a+b',
    );
    const roundTrip = read(
      receiptQueryString({ page: 2, search: 'Miami', trackingNumber: '1Z999AA10123' }).slice(1),
    );
    expect(roundTrip.data).toMatchObject({
      page: 2,
      search: 'Miami',
      trackingNumber: '1Z999AA10123',
    });
  });
});
