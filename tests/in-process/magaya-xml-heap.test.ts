/**
 * The figure the issue sets for Magaya's largest answers: reading a 30 MB list of receipts grows the
 * heap by at most 100 MB, read directly or inside a SOAP answer. It takes seconds on a busy machine, so
 * it runs in this tier rather than the unit tier's quick loop. The list read directly was measured at
 * about 17 MB, a wide margin whatever the collector's timing; the SOAP answer grew it by 440 MB while
 * sax gathered the out-parameter's text whole.
 */
import { describe, expect, it } from 'vitest';
import { callSoap, soapString } from '~/server/provider/magaya/soap';
import { readElements } from '~/server/provider/magaya/xml';
import { largeReceiptList, serveLargeSoapAnswer } from '../support/magaya-large-answer';
import { stallLimit } from '../support/test-pace';

const HEAP_GROWTH_LIMIT = 100_000_000;

describe('Magaya XML reader, a large answer', () => {
  it(
    'when a 30 MB list of receipts is read, then the heap grows by less than 100 MB',
    { timeout: stallLimit(180_000) },
    async () => {
      const before = process.memoryUsage().heapUsed;
      let peak = before;
      let read = 0;
      for await (const element of readElements(largeReceiptList(), 'WarehouseReceipt')) {
        expect(element.name).toBe('WarehouseReceipt');
        if (++read % 100 === 0) peak = Math.max(peak, process.memoryUsage().heapUsed);
      }
      expect(read).toBeGreaterThan(10_000);
      expect(peak - before).toBeLessThan(HEAP_GROWTH_LIMIT);
    },
  );
});

describe('Magaya SOAP client, a large answer', () => {
  it(
    'when a 30 MB list arrives as escaped text in an out-parameter, then its receipts are read as it streams and the heap grows by less than 100 MB',
    { timeout: stallLimit(180_000) },
    async () => {
      // The answer as Magaya sends it: the list escaped inside trans_list_xml, made as it is sent.
      const server = await serveLargeSoapAnswer();
      try {
        const before = process.memoryUsage().heapUsed;
        let peak = before;
        let read = 0;
        const values = await callSoap(
          {
            url: server.url,
            timeoutMs: stallLimit(170_000),
          },
          'GetNextTransbyDate',
          { cookie: soapString('c1') },
          {
            wanted: new Set(['WarehouseReceipt']),
            onElement: () => {
              if (++read % 100 === 0) peak = Math.max(peak, process.memoryUsage().heapUsed);
            },
          },
        );
        expect(values.get('cookie')).toBe('c2');
        expect(read).toBeGreaterThan(10_000);
        expect(peak - before).toBeLessThan(HEAP_GROWTH_LIMIT);
      } finally {
        await server.close();
      }
    },
  );
});
