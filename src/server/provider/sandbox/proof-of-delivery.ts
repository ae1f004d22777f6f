/**
 * The sandbox's proof of delivery of a delivered receipt: one A4-ish page (US Letter) made with pdf-lib
 * and its standard fonts (nothing embedded, a few KB), with the receipt, its packages, who signed and
 * when. Its dates are the delivery's, never the time it is made, so the same receipt always gives the
 * same bytes.
 */
import { PDFDocument, rgb, StandardFonts, type PDFFont, type PDFPage } from 'pdf-lib';
import type { ProviderReceipt } from '../contract';
import { SANDBOX_PROVIDER_NAME } from './authorization';
import { Random } from './random';

const PAGE = { width: 612, height: 792, margin: 56 } as const;
const INK = rgb(0.1, 0.1, 0.12);
const MUTED = rgb(0.4, 0.4, 0.45);
const RULE = rgb(0.8, 0.8, 0.82);

const RECIPIENTS = [
  'R. Ramdin',
  'S. Jagesar',
  'M. Pinas',
  'A. Sedney',
  'J. Kromodikoro',
  'L. Tjon A Fong',
  'D. Bouterse',
  'N. Mahabier',
] as const;

/** What the standard fonts can write (WinAnsi): anything else becomes "?". */
const writable = (text: string) => text.replace(/[^\x20-\x7e\xa0-\xff]/g, '?');

function write(
  page: PDFPage,
  text: string,
  x: number,
  y: number,
  font: PDFFont,
  size: number,
  color = INK,
): void {
  page.drawText(writable(text), { x, y, size, font, color });
}

/** A signature's stroke: a few loops that differ from receipt to receipt. */
function signaturePath(random: Random): string {
  let x = 0;
  const parts = [`M 0 ${random.between(-6, 6).toFixed(1)}`];
  for (let loop = 0; loop < 6; loop++) {
    const step = random.between(18, 30);
    // `share` of the step along, at a height between `low` and `high`.
    const point = (share: number, low: number, high: number) =>
      `${(x + step * share).toFixed(1)} ${random.between(low, high).toFixed(1)}`;
    parts.push(`C ${point(0.3, -26, -8)} ${point(0.7, 8, 22)} ${point(1, -6, 6)}`);
    x += step;
  }
  return parts.join(' ');
}

export async function renderProofOfDelivery(
  receipt: ProviderReceipt,
  deliveredAt: Date,
  random: Random,
): Promise<Uint8Array> {
  const pdf = await PDFDocument.create({ updateMetadata: false });
  pdf.setTitle(`Proof of delivery ${receipt.number}`);
  pdf.setAuthor(SANDBOX_PROVIDER_NAME);
  pdf.setCreator(SANDBOX_PROVIDER_NAME);
  pdf.setProducer(SANDBOX_PROVIDER_NAME);
  pdf.setCreationDate(deliveredAt);
  pdf.setModificationDate(deliveredAt);
  const [regular, bold] = await Promise.all([
    pdf.embedFont(StandardFonts.Helvetica),
    pdf.embedFont(StandardFonts.HelveticaBold),
  ]);
  const page = pdf.addPage([PAGE.width, PAGE.height]);
  const left = PAGE.margin;
  const right = PAGE.width - PAGE.margin;
  let y = PAGE.height - PAGE.margin;

  write(page, SANDBOX_PROVIDER_NAME.toUpperCase(), left, y, bold, 11, MUTED);
  y -= 34;
  write(page, 'Proof of delivery', left, y, bold, 26);
  y -= 22;
  write(page, `Receipt ${receipt.number}`, left, y, regular, 13, MUTED);
  y -= 30;

  const facts: Array<[string, string]> = [
    ['Delivered', `${deliveredAt.toISOString().slice(0, 16).replace('T', ' ')} UTC`],
    ['Delivered to', receipt.consigneeName],
    ['Destination', receipt.destination],
    ['Shipper', receipt.shipperName],
    ['From', `${receipt.origin.name} (${receipt.modeOfTransportation})`],
    ['Pieces', String(receipt.pieces)],
    ['Weight', `${receipt.totalWeightValue.toFixed(2)} lbs`],
  ];
  for (const [label, value] of facts) {
    write(page, label, left, y, regular, 10, MUTED);
    write(page, value, left + 110, y, regular, 11);
    y -= 18;
  }

  y -= 14;
  page.drawLine({ start: { x: left, y }, end: { x: right, y }, thickness: 1, color: RULE });
  y -= 18;
  const columns = [left, left + 24, left + 220, left + 400, left + 450];
  ['#', 'Description', 'Tracking number', 'Pieces', 'Weight'].forEach((heading, column) =>
    write(page, heading, columns[column]!, y, bold, 10),
  );
  y -= 16;
  receipt.commodities.forEach((commodity, index) => {
    const cells = [
      String(index + 1),
      commodity.description,
      commodity.trackingNumber ?? '-',
      String(commodity.pieces),
      `${commodity.totalWeightValue.toFixed(2)} lbs`,
    ];
    cells.forEach((cell, column) => write(page, cell, columns[column]!, y, regular, 10));
    y -= 15;
  });
  if (receipt.commodities.length === 0) {
    write(page, 'Loose freight, no packages listed', columns[1]!, y, regular, 10, MUTED);
    y -= 15;
  }

  y -= 30;
  write(page, 'Received in good order by', left, y, regular, 10, MUTED);
  y -= 44;
  page.drawSvgPath(signaturePath(random), {
    x: left + 6,
    y: y + 14,
    borderColor: rgb(0.1, 0.2, 0.55),
    borderWidth: 1.6,
  });
  page.drawLine({ start: { x: left, y }, end: { x: left + 220, y }, thickness: 0.8, color: INK });
  y -= 14;
  write(page, random.pick(RECIPIENTS), left, y, regular, 11);
  write(page, `Driver ${random.int(10, 99)}`, left + 300, y, regular, 11);

  write(
    page,
    'Made by the sandbox provider for demonstration: no goods moved.',
    left,
    PAGE.margin,
    regular,
    8,
    MUTED,
  );
  return pdf.save({ useObjectStreams: false });
}
