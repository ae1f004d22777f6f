import { describe, expect, it } from 'vitest';
import {
  childOf,
  parseXml,
  readElements,
  textOf,
  XmlRefusedError,
  type XmlElement,
} from '~/server/provider/magaya/xml';

const NS = 'http://www.magaya.com/XMLSchema/V1';

async function collect(
  chunks: Iterable<string | Uint8Array> | AsyncIterable<string | Uint8Array>,
  name: string,
): Promise<XmlElement[]> {
  const found: XmlElement[] = [];
  for await (const element of readElements(chunks as AsyncIterable<string | Uint8Array>, name))
    found.push(element);
  return found;
}

async function* asAsync<T>(items: Iterable<T>): AsyncGenerator<T> {
  yield* items;
}

const receipts = (count: number) =>
  `<?xml version="1.0" encoding="utf-8"?><WarehouseReceipts xmlns="${NS}">` +
  Array.from(
    { length: count },
    (_, index) =>
      `<WarehouseReceipt GUID="g-${index}"><Number>${index}</Number><Notes>A &amp; B &#233;</Notes></WarehouseReceipt>`,
  ).join('') +
  '</WarehouseReceipts>';

describe('Magaya XML reader', () => {
  it('when a list arrives in pieces cut anywhere, then each receipt is read whole, by local name, with its text unescaped', async () => {
    const document = receipts(3)
      .replace(`xmlns="${NS}"`, `xmlns:m="${NS}"`)
      .replaceAll('<W', '<m:W')
      .replaceAll('</W', '</m:W')
      .replaceAll('<N', '<m:N')
      .replaceAll('</N', '</m:N');
    const bytes = new TextEncoder().encode(document);
    const pieces = Array.from({ length: Math.ceil(bytes.length / 7) }, (_, index) =>
      bytes.slice(index * 7, index * 7 + 7),
    );
    const found = await collect(asAsync(pieces), 'WarehouseReceipt');
    expect(
      found.map((receipt) => [
        receipt.attributes.GUID,
        textOf(receipt, 'Number'),
        textOf(receipt, 'Notes'),
      ]),
    ).toEqual([
      ['g-0', '0', 'A & B é'],
      ['g-1', '1', 'A & B é'],
      ['g-2', '2', 'A & B é'],
    ]);
  });

  it('when a document is parsed whole, then its root holds its children and CDATA counts as text', () => {
    const root = parseXml(
      `<a xmlns="${NS}"><b Unit="kg">1.5</b><c><![CDATA[<not a tag>]]></c></a>`,
    );
    expect(root.name).toBe('a');
    expect(childOf(root, 'b')).toMatchObject({ attributes: { Unit: 'kg' }, text: '1.5' });
    expect(textOf(root, 'c')).toBe('<not a tag>');
    expect(textOf(root, 'missing')).toBe('');
  });

  it('when a document declares entities (a billion laughs), then it is refused and nothing is expanded', async () => {
    const laughs =
      '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">' +
      Array.from(
        { length: 9 },
        (_, level) => `<!ENTITY lol${level + 1} "${`&lol${level || ''};`.repeat(10)}">`,
      ).join('') +
      ']><WarehouseReceipts><WarehouseReceipt><Notes>&lol9;</Notes></WarehouseReceipt></WarehouseReceipts>';
    await expect(collect([laughs], 'WarehouseReceipt')).rejects.toThrow(XmlRefusedError);
    expect(() => parseXml(laughs)).toThrow(/DOCTYPE/);
  });

  it('when a document names an external entity, then it is refused and nothing is fetched', async () => {
    // A URL no one answers: a fetch would hang or fail differently; the refusal comes first.
    const external =
      '<?xml version="1.0"?><!DOCTYPE r [<!ENTITY x SYSTEM "http://127.0.0.1:9/secret">]><r>&x;</r>';
    await expect(collect([external], 'r')).rejects.toThrow(/DOCTYPE/);
    const file = '<!DOCTYPE r SYSTEM "file:///etc/passwd"><r/>';
    expect(() => parseXml(file)).toThrow(XmlRefusedError);
  });

  it('when a document uses an entity it never declared, or HTML entities, then it is refused', () => {
    expect(() => parseXml('<r>&nbsp;</r>')).toThrow(XmlRefusedError);
    expect(() => parseXml('<r>&undeclared;</r>')).toThrow(XmlRefusedError);
  });

  it('when a document is malformed, cut short or not UTF-8, then it is refused', async () => {
    expect(() => parseXml('<a><b></a>')).toThrow(XmlRefusedError);
    await expect(
      collect(['<WarehouseReceipts><WarehouseReceipt>'], 'WarehouseReceipt'),
    ).rejects.toThrow(XmlRefusedError);
    await expect(
      collect([new Uint8Array([0x3c, 0x72, 0x3e, 0xff, 0x3c, 0x2f, 0x72, 0x3e])], 'r'),
    ).rejects.toThrow(/UTF-8/);
  });

  it('when a list is read, then receipts come out before the document ends (it is a stream, not a whole)', async () => {
    const seen: string[] = [];
    async function* slowly() {
      yield `<WarehouseReceipts xmlns="${NS}"><WarehouseReceipt GUID="first"/>`;
      seen.push('second piece asked for');
      yield '<WarehouseReceipt GUID="second"/></WarehouseReceipts>';
    }
    for await (const receipt of readElements(slowly(), 'WarehouseReceipt'))
      seen.push(receipt.attributes.GUID!);
    expect(seen).toEqual(['first', 'second piece asked for', 'second']);
  });
});
