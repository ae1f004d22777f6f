/**
 * Exports made the ways real ones come, and their upload to POST /api/admin/imports: CSV with a BOM or
 * in Windows-1252, XLSX written by exceljs (title rows, date cells), Magaya's XML, and crafted zips.
 */
import { deflateRawSync } from 'node:zlib';
import ExcelJS from 'exceljs';
import type { ApiClient, ApiResponse } from './api-client';

export interface ImportFile {
  name: string;
  bytes: Uint8Array;
  type?: string;
}

/** Posts a file with the form's other fields, as the import screen does. */
export async function uploadImport(
  client: ApiClient,
  file: ImportFile | null,
  fields: Record<string, string> = {},
  headers: Record<string, string> = {},
): Promise<ApiResponse> {
  const { url } = client.portal;
  const form = new FormData();
  if (file)
    form.append(
      'file',
      new Blob([new Uint8Array(file.bytes)], { type: file.type ?? 'application/octet-stream' }),
      file.name,
    );
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  const encoded = new Response(form);
  const sent: Record<string, string> = {
    Origin: url,
    'Content-Type': encoded.headers.get('content-type')!,
    ...headers,
  };
  if (client.cookie) sent.Cookie = client.cookie;
  const response = await fetch(`${url}/api/admin/imports`, {
    method: 'POST',
    headers: sent,
    body: Buffer.from(await encoded.arrayBuffer()),
  });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON: kept as text for the assertion to show.
  }
  return { status: response.status, headers: response.headers, body };
}

/** Text as a spreadsheet saves a UTF-8 CSV: with the byte order mark and CRLF line ends. */
export const utf8CsvWithBom = (lines: string[]): Uint8Array =>
  Buffer.from(`\uFEFF${lines.join('\r\n')}\r\n`, 'utf8');

/** Text as an older Excel saves "CSV (Comma delimited)" on Windows: Windows-1252 (Latin-1 for these letters), CRLF. */
export const windows1252Csv = (lines: string[]): Uint8Array =>
  Buffer.from(`${lines.join('\r\n')}\r\n`, 'latin1');

/**
 * An XLSX as Excel saves a list view: `titles` above the header row, then the rows (Date values become
 * date cells); `otherTabs` follow the first tab, as a workbook's other sheets do.
 */
export async function xlsxOf(
  titles: string[],
  header: string[],
  rows: ExcelJS.CellValue[][],
  otherTabs: { name: string; rows: ExcelJS.CellValue[][] }[] = [],
): Promise<Uint8Array> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Warehouse Receipts');
  for (const title of titles) sheet.addRow([title]);
  sheet.addRow(header);
  for (const row of rows) {
    const added = sheet.addRow(row);
    added.eachCell((cell) => {
      if (cell.value instanceof Date) cell.numFmt = 'mm/dd/yyyy';
    });
  }
  for (const tab of otherTabs) workbook.addWorksheet(tab.name).addRows(tab.rows);
  return new Uint8Array(await workbook.xlsx.writeBuffer());
}

export interface MagayaTestReceipt {
  guid: string;
  number: string;
  createdOn: string;
  consignee: string;
  shipper: string;
  status: string;
  items: { tracking: string; description: string; pieces: number; weightKg: number }[];
}

/** Magaya's `<WarehouseReceipts>` export. */
export function magayaXml(receipts: MagayaTestReceipt[]): Uint8Array {
  const body = receipts
    .map(
      (receipt) => `
  <WarehouseReceipt GUID="${receipt.guid}">
    <Number>${receipt.number}</Number>
    <CreatedOn>${receipt.createdOn}</CreatedOn>
    <ShipperName>${receipt.shipper}</ShipperName>
    <ConsigneeName>${receipt.consignee}</ConsigneeName>
    <Consignee GUID="c-${receipt.consignee.length}"><Name>${receipt.consignee}</Name></Consignee>
    <Status>${receipt.status}</Status>
    <DestinationPort Code="PBM"><Name>Paramaribo</Name></DestinationPort>
    <Items>${receipt.items
      .map(
        (item) =>
          `<Item><TrackingNumber>${item.tracking}</TrackingNumber><Description>${item.description}</Description><Pieces>${item.pieces}</Pieces><Weight Unit="kg">${item.weightKg}</Weight></Item>`,
      )
      .join('')}</Items>
  </WarehouseReceipt>`,
    )
    .join('');
  return Buffer.from(
    `<?xml version="1.0" encoding="utf-8"?>\n<WarehouseReceipts xmlns="http://www.magaya.com/XMLSchema/V1">${body}\n</WarehouseReceipts>\n`,
    'utf8',
  );
}

/**
 * A zip of stored entries as written, each declaring `declaredSize` as its inflated size: the honest
 * size of a bomb (refused from the directory alone), or a lie smaller than what it inflates to; a
 * `hidden` entry is left out of the directory.
 */
export function craftedZip(
  entries: { name: string; data: Uint8Array; declaredSize?: number; hidden?: boolean }[],
): Uint8Array {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    const compressed = deflateRawSync(entry.data);
    const size = entry.declaredSize ?? entry.data.length;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(0, 14);
    local.writeUInt32LE(compressed.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(0, 16);
    central.writeUInt32LE(compressed.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, compressed);
    // A hidden entry is in the file but not in its directory: a reader of the entries in sequence still finds it.
    if (!entry.hidden) centrals.push(central, name);
    offset += local.length + name.length + compressed.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  const listed = entries.filter((entry) => !entry.hidden).length;
  end.writeUInt16LE(listed, 8);
  end.writeUInt16LE(listed, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return new Uint8Array(Buffer.concat([...locals, directory, end]));
}
