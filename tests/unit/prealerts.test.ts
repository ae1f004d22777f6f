/**
 * Pre-alerts' pure rules: one normalisation of tracking numbers (pre-alerts and the mirror's packages
 * alike), dollars read as a person types them, the payload's rules and messages in both languages, what
 * the pages show of a pre-alert, and the sandbox's warehouse receiving a pre-alerted package a window
 * after it was announced.
 */
import { describe, expect, it } from 'vitest';
import { SandboxStore } from '~/server/provider/sandbox/store';
import { inLocale } from '~/server/locale';
import { trackingKey } from '~/server/services/receipts/mirror-rows';
import { declaredValueText, formatUsd, prealertFacts } from '~/shared/prealert-view';
import {
  adminPrealertQuerySchema,
  matchPayloadSchema,
  normalizeTrackingNumber,
  readDeclaredValue,
  prealertListQuerySchema,
  prealertPayloadSchema,
} from '~/shared/prealerts';

const VALID = {
  carrier: 'ups',
  trackingNumber: '1Z999AA10123456784',
  shipper: 'Amazon.com',
  description: 'Kitchen scale',
  declaredValue: 49.99,
  consigneeId: 101,
};

/** Every field's first message for an input, or null when it passes. */
function problems(input: unknown): Record<string, string> | null {
  const result = prealertPayloadSchema.safeParse(input);
  if (result.success) return null;
  const found: Record<string, string> = {};
  for (const issue of result.error.issues) found[issue.path.join('.')] ??= issue.message;
  return found;
}

describe('normalizeTrackingNumber', () => {
  it.each([
    ['1z999aa10123456784', '1Z999AA10123456784'],
    ['1Z 999 AA1 01 2345 6784', '1Z999AA10123456784'],
    ['1Z-999-AA1-0123-456784', '1Z999AA10123456784'],
    ['  tba\t123456789012\n', 'TBA123456789012'],
    ['9400 1118–9922—3033 0051‑12', '9400111899223033005112'],
    ['', ''],
  ])('when %j is typed, then it is %j', (typed, normalized) => {
    expect(normalizeTrackingNumber(typed)).toBe(normalized);
  });

  it('when a package is mirrored, then its key is the same normalisation: a pre-alert matches it however either was written', () => {
    expect(trackingKey('1Z 999 AA1-0123 456784')).toBe(
      normalizeTrackingNumber('1z999aa1 0123-456784'),
    );
  });

  it('when it is applied twice, then nothing more changes', () => {
    const once = normalizeTrackingNumber(' 1z-99 9 ');
    expect(normalizeTrackingNumber(once)).toBe(once);
  });
});

describe('readDeclaredValue', () => {
  it.each([
    [49.99, 4999],
    [19.99, 1999],
    [0.1 + 0.2, 30],
    [7, 700],
    ['49.99', 4999],
    ['49,99', 4999],
    ['49,9', 4990],
    [' $ 120.5 ', 12050],
    ['120', 12000],
    ['0.01', 1],
    ['$1,299.00', 129900],
    ['1,299', 129900],
    ['1,234,567.89', 123456789],
    ['USD 1299', 129900],
  ])('when %j is typed in English, then it is %i cents', (value, cents) => {
    expect(readDeclaredValue(value, 'en')).toEqual({ cents });
  });

  it.each([
    ['1.299,00', 129900],
    ['US$ 1.299,00', 129900],
    ['1.299', 129900],
    ['49,99', 4999],
    ['49.99', 4999],
    ['1299,5', 129950],
  ])('when %j is typed in Dutch, then it is %i cents', (value, cents) => {
    expect(readDeclaredValue(value, 'nl')).toEqual({ cents });
  });

  it.each([
    [12.345, 'en', 'decimals'],
    ['12.345', 'en', 'decimals'],
    ['1.299,001', 'nl', 'decimals'],
    ['1.234,50', 'en', 'separators'],
    ['1,29,9', 'en', 'separators'],
    ['1.2.3', 'nl', 'separators'],
    ['12.', 'en', 'separators'],
    ['-5', 'en', 'negative'],
    ['$-5', 'en', 'negative'],
    ['€ 12,50', 'nl', 'currency'],
    ['abc', 'en', 'not-a-number'],
    ['12 dollars', 'en', 'not-a-number'],
    ['', 'en', 'not-a-number'],
    [Number.NaN, 'en', 'not-a-number'],
    [Number.POSITIVE_INFINITY, 'en', 'not-a-number'],
    [null, 'en', 'not-a-number'],
    [true, 'en', 'not-a-number'],
  ] as const)('when %j is typed in %s, then it is no amount: %s', (value, locale, problem) => {
    expect(readDeclaredValue(value, locale)).toEqual({ problem });
  });

  it('when a Dutch reader types more than two decimals, then the form says so in Dutch', () => {
    const message = inLocale(
      'nl',
      () =>
        prealertPayloadSchema.safeParse({ ...VALID, declaredValue: '1.299,001' }).error?.issues[0]
          ?.message,
    );
    expect(message).toBe(
      'De aangegeven waarde kan hoogstens twee decimalen (centen) hebben, zoals 1.299,99',
    );
    expect(
      inLocale(
        'nl',
        () => prealertPayloadSchema.parse({ ...VALID, declaredValue: '1.299,00' }).declaredValue,
      ),
    ).toBe(129900);
    expect(
      inLocale(
        'en',
        () => prealertPayloadSchema.parse({ ...VALID, declaredValue: '$1,299.00' }).declaredValue,
      ),
    ).toBe(129900);
  });
});

describe('prealertPayloadSchema', () => {
  it('when every field is right, then it comes out normalised: the carrier in lower case, the number in upper case, the value in cents', () => {
    expect(
      prealertPayloadSchema.parse({
        ...VALID,
        carrier: 'UPS',
        trackingNumber: '1z-999 aa1 0123 456784',
        shipper: ' Amazon.com ',
      }),
    ).toEqual({
      carrier: 'ups',
      trackingNumber: '1Z999AA10123456784',
      shipper: 'Amazon.com',
      description: 'Kitchen scale',
      declaredValue: 4999,
      consigneeId: 101,
      removeInvoice: false,
    });
  });

  it("when a form sends it, then every field is text and the checkbox is 'on' or 'true'", () => {
    const parsed = prealertPayloadSchema.parse({
      ...VALID,
      declaredValue: '12,50',
      consigneeId: '102',
      removeInvoice: 'on',
    });
    expect(parsed).toMatchObject({ declaredValue: 1250, consigneeId: 102, removeInvoice: true });
  });

  it.each([
    [{ carrier: undefined }, { carrier: 'Choose the carrier' }],
    [
      { carrier: 'Pigeon' },
      { carrier: 'The carrier must be one of ups, fedex, usps, dhl, amazon, other' },
    ],
    [{ trackingNumber: undefined }, { trackingNumber: 'Enter the tracking number' }],
    [
      { trackingNumber: '1Z 99' },
      { trackingNumber: 'A tracking number has at least 8 letters and digits' },
    ],
    [
      { trackingNumber: 'A'.repeat(41) },
      { trackingNumber: 'A tracking number has at most 40 letters and digits' },
    ],
    [
      { trackingNumber: '1Z999AA1.0123' },
      {
        trackingNumber:
          'A tracking number has only letters and digits (spaces and dashes are left out)',
      },
    ],
    [
      { trackingNumber: '1Z999AA1\u00000123' },
      {
        trackingNumber:
          'A tracking number has only letters and digits (spaces and dashes are left out)',
      },
    ],
    [{ shipper: ' ' }, { shipper: 'Enter the store or shipper' }],
    [
      { shipper: 'x'.repeat(101) },
      { shipper: 'The store or shipper can be at most 100 characters' },
    ],
    [{ description: undefined }, { description: 'Describe what is in the package' }],
    [
      { description: 'x'.repeat(301) },
      { description: 'The description can be at most 300 characters' },
    ],
    [
      { description: 'Shoes\u0007' },
      { description: 'This text contains characters that cannot be shown; please type it again' },
    ],
    [{ declaredValue: undefined }, { declaredValue: 'Enter the declared value in US dollars' }],
    [
      { declaredValue: '1,000.005' },
      {
        declaredValue: 'The declared value can have at most two decimals (cents), such as 1,299.99',
      },
    ],
    [
      { declaredValue: 'lots' },
      { declaredValue: 'Enter the declared value as an amount in US dollars, such as 49.99' },
    ],
    [{ declaredValue: '0,00' }, { declaredValue: 'The declared value must be more than zero' }],
    [
      { declaredValue: 1_000_000 },
      { declaredValue: 'The declared value can be at most $999,999.99' },
    ],
    [{ consigneeId: undefined }, { consigneeId: 'Choose the consignee' }],
    [{ consigneeId: '' }, { consigneeId: 'Choose the consignee' }],
    [{ consigneeId: 0 }, { consigneeId: 'Choose one of your own consignees' }],
    [{ consigneeId: 'abc' }, { consigneeId: 'Choose one of your own consignees' }],
    [{ consigneeId: 1.5 }, { consigneeId: 'Choose one of your own consignees' }],
  ])('when %j, then %j', (change, expected) => {
    expect(problems({ ...VALID, ...change })).toEqual(expected);
  });

  it('when several fields are wrong, then each says so at once', () => {
    expect(Object.keys(problems({ carrier: 'x', shipper: '' }) ?? {}).sort()).toEqual([
      'carrier',
      'consigneeId',
      'declaredValue',
      'description',
      'shipper',
      'trackingNumber',
    ]);
  });

  it('when the reader is Dutch, then the messages and the amounts are Dutch', () => {
    inLocale('nl', () => {
      expect(problems({ ...VALID, declaredValue: 'veel' })).toEqual({
        declaredValue: 'Vul de aangegeven waarde in als bedrag in Amerikaanse dollars, zoals 49,99',
      });
      expect(problems({ ...VALID, declaredValue: 2_000_000 })!.declaredValue).toMatch(
        /^De aangegeven waarde mag hoogstens US\$\s999\.999,99 zijn$/,
      );
      expect(problems({ ...VALID, trackingNumber: '' })).toEqual({
        trackingNumber: 'Vul het trackingnummer in',
      });
    });
  });
});

describe('the list queries and the match', () => {
  it('when the list is asked for, then its page, limit and status are checked', () => {
    expect(prealertListQuerySchema.parse({})).toEqual({ page: 1, limit: 20, status: undefined });
    expect(prealertListQuerySchema.parse({ page: '2', limit: '50', status: 'received' })).toEqual({
      page: 2,
      limit: 50,
      status: 'received',
    });
    expect(prealertListQuerySchema.safeParse({ status: 'lost' }).error?.issues[0]?.message).toBe(
      'status must be one of expected, received',
    );
    expect(prealertListQuerySchema.safeParse({ limit: '101' }).success).toBe(false);
  });

  it("when the admin's view is asked for, then it is stale unless another is named", () => {
    expect(adminPrealertQuerySchema.parse({}).state).toBe('stale');
    expect(adminPrealertQuerySchema.parse({ state: 'unmatched-receipts' }).state).toBe(
      'unmatched-receipts',
    );
    expect(adminPrealertQuerySchema.safeParse({ state: 'all' }).error?.issues[0]?.message).toBe(
      'state must be one of stale, unmatched-receipts, matched',
    );
  });

  it('when a match names its receipt, then by its id only', () => {
    expect(matchPayloadSchema.parse({ receiptId: 100123 })).toEqual({ receiptId: 100123 });
    for (const receiptId of ['100123', 0, -1, 1.5, null]) {
      expect(matchPayloadSchema.safeParse({ receiptId }).error?.issues[0]?.message).toBe(
        'receiptId must be the id of a receipt (a positive whole number)',
      );
    }
  });
});

describe('what a pre-alert shows', () => {
  it('when shown, then its carrier by name and its value in dollars, in the reader’s language', () => {
    const prealert = {
      carrier: 'amazon',
      trackingNumber: 'TBA123456789012',
      shipper: 'Amazon.com',
      description: 'Books',
      declaredValue: 1234.5,
    };
    expect(prealertFacts(prealert).map((fact) => [fact.label, fact.text])).toEqual([
      ['Carrier', 'Amazon Logistics'],
      ['Tracking number', 'TBA123456789012'],
      ['Store or shipper', 'Amazon.com'],
      ['Description', 'Books'],
      ['Declared value (USD)', '$1,234.50'],
    ]);
    inLocale('nl', () => {
      expect(prealertFacts({ ...prealert, carrier: 'other' })[0]).toEqual({
        label: 'Vervoerder',
        text: 'Anders',
      });
      expect(formatUsd(123450)).toMatch(/^US\$\s1\.234,50$/);
      expect(declaredValueText(4999)).toBe('49,99');
    });
    expect(declaredValueText(4999)).toBe('49.99');
  });
});

describe("the sandbox's warehouse", () => {
  const NOW = new Date(2026, 10, 18, 14, 30).getTime();
  const MINUTE = 60_000;
  const prealert = (id: number, consigneeId: number) => ({
    id,
    consigneeId,
    trackingNumber: `1Z999AA1012345678${id}`,
    shipper: 'Best Buy',
    description: 'Headphones',
  });

  it('when a package is pre-alerted, then it arrives in the next window: one package of that number, as a label prints it, for that consignee, at Miami', () => {
    const store = new SandboxStore(7, 50, NOW);
    const consignee = store.consignees[4]!;
    expect(store.announcePrealert(prealert(1, consignee.id))).toEqual({
      status: 'pending',
      receiptId: null,
      created: true,
    });
    const { added } = store.advance(NOW + MINUTE);
    const receipt = added
      .map((id) => store.receipt(id)!)
      .find((candidate) => candidate.commodities[0]?.description === 'Headphones')!;
    expect(receipt).toMatchObject({
      consigneeId: consignee.id,
      consigneeName: consignee.name,
      shipperName: 'Best Buy',
      status: 'Received at MIA warehouse',
    });
    expect(receipt.commodities).toHaveLength(1);
    expect(receipt.commodities[0]!.trackingNumber).toBe('1Z99 9AA1 0123 4567 81');
    // Told again (a retry), it stays received; withdrawn, it cannot be.
    expect(store.announcePrealert(prealert(1, consignee.id))).toEqual({
      status: 'received',
      receiptId: receipt.id,
      created: false,
    });
    expect(store.withdrawPrealert(1)).toEqual({ status: 'received', receiptId: receipt.id });
    expect(store.advance(NOW + 2 * MINUTE).added).not.toContain(receipt.id);
  });

  it('when a pre-alert is withdrawn or changed before its window, then the package that comes is the changed one, or none', () => {
    const store = new SandboxStore(7, 50, NOW);
    const consigneeId = store.consignees[0]!.id;
    store.announcePrealert(prealert(2, consigneeId));
    expect(store.withdrawPrealert(2)).toEqual({ status: 'pending', receiptId: null });
    expect(store.withdrawPrealert(2)).toBeNull();
    store.announcePrealert(prealert(3, consigneeId));
    expect(
      store.announcePrealert({ ...prealert(3, consigneeId), description: 'Two headphones' })
        .created,
    ).toBe(false);
    const arrived = store
      .advance(NOW + MINUTE)
      .added.map((id) => store.receipt(id)!)
      .filter((receipt) => receipt.shipperName === 'Best Buy');
    expect(arrived.map((receipt) => receipt.commodities[0]!.description)).toEqual([
      'Two headphones',
    ]);
  });

  it('when the consignee is one it does not know, then no package comes', () => {
    const store = new SandboxStore(7, 50, NOW);
    store.announcePrealert(prealert(4, 999_999));
    const arrived = store.advance(NOW + MINUTE).added.map((id) => store.receipt(id)!);
    expect(
      arrived.some(
        (receipt) =>
          receipt.shipperName === 'Best Buy' &&
          receipt.commodities[0]?.description === 'Headphones',
      ),
    ).toBe(false);
  });
});
