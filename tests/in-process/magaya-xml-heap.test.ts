/**
 * The figure the issue sets for Magaya's largest answers: reading a 30 MB list of receipts grows the
 * heap by at most 100 MB. It is pure logic, but it takes seconds on a busy machine, so it runs in this
 * tier rather than the unit tier's quick loop. Measured here at about 17 MB: the bound has a wide margin,
 * whatever the collector's timing.
 */
import { describe, expect, it } from 'vitest';
import { readElements } from '~/server/provider/magaya/xml';

const DOCUMENT_BYTES = 30_000_000;
const HEAP_GROWTH_LIMIT = 100_000_000;

const receipt = (index: number) =>
  `<WarehouseReceipt GUID="{${index}}"><Number>${index}</Number><Status>OnHand</Status><Notes>${'Fragile, keep dry. '.repeat(20)}</Notes><Items>` +
  '<Item><Description>Box of household goods</Description><Pieces>1</Pieces><Weight Unit="kg">1.5</Weight><Volume Unit="m3">0.02</Volume></Item>'.repeat(5) +
  '</Items></WarehouseReceipt>';

/** The document made as it is read, so the test holds no more of it than a client receiving it would. */
async function* thirtyMegabytes(): AsyncGenerator<Uint8Array> {
  const encoder = new TextEncoder();
  yield encoder.encode('<?xml version="1.0" encoding="utf-8"?><WarehouseReceipts xmlns="http://www.magaya.com/XMLSchema/V1">');
  let sent = 0;
  let index = 0;
  while (sent < DOCUMENT_BYTES) {
    let chunk = '';
    while (chunk.length < 64 * 1024) chunk += receipt(index++);
    sent += chunk.length;
    yield encoder.encode(chunk);
  }
  yield encoder.encode('</WarehouseReceipts>');
}

describe('Magaya XML reader, a large answer', () => {
  it('when a 30 MB list of receipts is read, then the heap grows by less than 100 MB', { timeout: 180_000 }, async () => {
    const before = process.memoryUsage().heapUsed;
    let peak = before;
    let read = 0;
    for await (const element of readElements(thirtyMegabytes(), 'WarehouseReceipt')) {
      expect(element.name).toBe('WarehouseReceipt');
      if (++read % 100 === 0) peak = Math.max(peak, process.memoryUsage().heapUsed);
    }
    expect(read).toBeGreaterThan(10_000);
    expect(peak - before).toBeLessThan(HEAP_GROWTH_LIMIT);
  });
});
