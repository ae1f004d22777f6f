/**
 * The figure the issue sets for Magaya's largest answers: reading a 30 MB list of receipts grows the
 * heap by at most 100 MB, read directly or inside a SOAP answer. It takes seconds on a busy machine, so
 * it runs in this tier rather than the unit tier's quick loop. The list read directly was measured at
 * about 17 MB, a wide margin whatever the collector's timing; the SOAP answer grew it by 440 MB while
 * sax gathered the out-parameter's text whole.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { callSoap, soapString } from '~/server/provider/magaya/soap';
import { readElements } from '~/server/provider/magaya/xml';
import { stallLimit } from '../support/test-pace';

const DOCUMENT_BYTES = 30_000_000;
const HEAP_GROWTH_LIMIT = 100_000_000;

const receipt = (index: number) =>
  `<WarehouseReceipt GUID="{${index}}"><Number>${index}</Number><Status>OnHand</Status><Notes>${'Fragile, keep dry. '.repeat(20)}</Notes><Items>` +
  '<Item><Description>Box of household goods</Description><Pieces>1</Pieces><Weight Unit="kg">1.5</Weight><Volume Unit="m3">0.02</Volume></Item>'.repeat(
    5,
  ) +
  '</Items></WarehouseReceipt>';

/** The document made as it is read, so the test holds no more of it than a client receiving it would. */
async function* thirtyMegabytes(): AsyncGenerator<Uint8Array> {
  const encoder = new TextEncoder();
  yield encoder.encode(
    '<?xml version="1.0" encoding="utf-8"?><WarehouseReceipts xmlns="http://www.magaya.com/XMLSchema/V1">',
  );
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
  it(
    'when a 30 MB list of receipts is read, then the heap grows by less than 100 MB',
    { timeout: stallLimit(180_000) },
    async () => {
      const before = process.memoryUsage().heapUsed;
      let peak = before;
      let read = 0;
      for await (const element of readElements(thirtyMegabytes(), 'WarehouseReceipt')) {
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
      const escape = (text: string) =>
        text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
      const server = createServer((_request, response) => {
        response.writeHead(200, { 'Content-Type': 'text/xml; charset=utf-8' });
        response.write(
          '<?xml version="1.0" encoding="UTF-8"?><SOAP-ENV:Envelope xmlns:SOAP-ENV="http://schemas.xmlsoap.org/soap/envelope/"><SOAP-ENV:Body><ns:GetNextTransbyDateResponse xmlns:ns="urn:CSSoapService"><return>no_error</return><trans_list_xml>',
        );
        const list = thirtyMegabytes();
        const pump = async () => {
          for await (const chunk of list)
            if (!response.write(escape(new TextDecoder().decode(chunk))))
              await new Promise((resolve) => response.once('drain', resolve));
          response.end(
            '</trans_list_xml><cookie>c2</cookie><more_results>0</more_results></ns:GetNextTransbyDateResponse></SOAP-ENV:Body></SOAP-ENV:Envelope>',
          );
        };
        void pump();
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      try {
        const before = process.memoryUsage().heapUsed;
        let peak = before;
        let read = 0;
        const values = await callSoap(
          {
            url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/Invoke`,
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
        await new Promise((resolve) => server.close(resolve));
      }
    },
  );
});
