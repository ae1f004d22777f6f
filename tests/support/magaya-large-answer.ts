/**
 * Magaya's largest answers, made as they are sent so that whoever reads them holds no more of them than
 * a client receiving them would: a 30 MB list of receipts, and the same list escaped inside a SOAP
 * answer's out-parameter (trans_list_xml), as GetNextTransbyDate sends it. Used by
 * tests/in-process/magaya-xml-heap.test.ts and the bench's heap figure (scripts/magaya-heap.mjs).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export const LARGE_ANSWER_BYTES = 30_000_000;

const receipt = (index: number) =>
  `<WarehouseReceipt GUID="{${index}}"><Number>${index}</Number><Status>OnHand</Status><Notes>${'Fragile, keep dry. '.repeat(20)}</Notes><Items>` +
  '<Item><Description>Box of household goods</Description><Pieces>1</Pieces><Weight Unit="kg">1.5</Weight><Volume Unit="m3">0.02</Volume></Item>'.repeat(
    5,
  ) +
  '</Items></WarehouseReceipt>';

/** The 30 MB list of receipts, chunk by chunk. */
export async function* largeReceiptList(): AsyncGenerator<Uint8Array> {
  const encoder = new TextEncoder();
  yield encoder.encode(
    '<?xml version="1.0" encoding="utf-8"?><WarehouseReceipts xmlns="http://www.magaya.com/XMLSchema/V1">',
  );
  let sent = 0;
  let index = 0;
  while (sent < LARGE_ANSWER_BYTES) {
    let chunk = '';
    while (chunk.length < 64 * 1024) chunk += receipt(index++);
    sent += chunk.length;
    yield encoder.encode(chunk);
  }
  yield encoder.encode('</WarehouseReceipts>');
}

/**
 * An HTTP server answering every request with GetNextTransbyDate's answer around the 30 MB list,
 * escaped as Magaya escapes it, with the cookie `c2`. Answers its Invoke URL and how to close it.
 */
export async function serveLargeSoapAnswer(): Promise<{ url: string; close: () => Promise<void> }> {
  const escape = (text: string) =>
    text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'Content-Type': 'text/xml; charset=utf-8' });
    response.write(
      '<?xml version="1.0" encoding="UTF-8"?><SOAP-ENV:Envelope xmlns:SOAP-ENV="http://schemas.xmlsoap.org/soap/envelope/"><SOAP-ENV:Body><ns:GetNextTransbyDateResponse xmlns:ns="urn:CSSoapService"><return>no_error</return><trans_list_xml>',
    );
    const pump = async () => {
      for await (const chunk of largeReceiptList())
        if (!response.write(escape(new TextDecoder().decode(chunk))))
          await new Promise((resolve) => response.once('drain', resolve));
      response.end(
        '</trans_list_xml><cookie>c2</cookie><more_results>0</more_results></ns:GetNextTransbyDateResponse></SOAP-ENV:Body></SOAP-ENV:Envelope>',
      );
    };
    void pump();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/Invoke`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
