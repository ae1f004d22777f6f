/**
 * The three formats an export comes in, read as a stream of rows: CSV (csv-parse; delimiter and
 * encoding detected), XLSX (exceljs's streaming reader, after yauzl has checked the zip's inflated
 * size) and Magaya's XML (the adapter's own reader and mapping). The format is decided by the bytes.
 */
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { parse } from 'csv-parse';
import type { CellValue, Row } from 'exceljs';
import yauzl from 'yauzl';
import { m } from '~/paraglide/messages.js';
import { AppError } from '../../errors';
import { XmlRefusedError, readElements, type XmlElement } from '../../provider/magaya/xml';
import type { Cell } from './values';

export type ImportFormat = 'csv' | 'xlsx' | 'xml';

/** One row of a sheet, numbered as the spreadsheet shows it. */
export interface SheetRow {
  row: number;
  cells: Cell[];
}

/** How much a zip may inflate to, in all: a 50 MB XLSX of plain rows stays well below it; a zip bomb does not. */
export const MAX_INFLATED_BYTES = 400 * 1024 * 1024;
const MAX_ZIP_ENTRIES = 10_000;
const SNIFF_BYTES = 64 * 1024;

const notAFormat = () => new AppError('VALIDATION_ERROR', m.import_not_a_format());

async function firstBytes(file: string): Promise<Buffer> {
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.alloc(SNIFF_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, SNIFF_BYTES, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

type Encoding = 'utf-8' | 'windows-1252' | 'utf-16le';

/**
 * What the bytes are: XLSX by its zip signature, XML by its first mark, CSV by being text; anything
 * else is refused.
 */
export async function detectFormat(
  file: string,
): Promise<{ format: ImportFormat; encoding: Encoding }> {
  const head = await firstBytes(file);
  if (head.length === 0) throw notAFormat();
  if (head[0] === 0x50 && head[1] === 0x4b && head[2] === 0x03 && head[3] === 0x04)
    return { format: 'xlsx', encoding: 'utf-8' };
  if (head[0] === 0xff && head[1] === 0xfe) return { format: 'csv', encoding: 'utf-16le' };
  // NUL bytes, or other control characters than tab and line ends: a binary file, not text.
  if (
    head.some(
      (byte) => byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d && byte !== 0x0c,
    )
  )
    throw notAFormat();
  const text = head
    .toString('latin1')
    .replace(/^\u00ef\u00bb\u00bf/, '')
    .trimStart();
  if (text.startsWith('<')) return { format: 'xml', encoding: 'utf-8' };
  return { format: 'csv', encoding: (await isUtf8(file)) ? 'utf-8' : 'windows-1252' };
}

/** UTF-8 (with or without its BOM) when every byte decodes as UTF-8; otherwise it is read as Windows-1252. */
async function isUtf8(file: string): Promise<boolean> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  try {
    for await (const chunk of createReadStream(file))
      decoder.decode(chunk as Buffer, { stream: true });
    decoder.decode();
    return true;
  } catch {
    return false;
  }
}

async function* decoded(file: string, encoding: Encoding): AsyncGenerator<string> {
  const decoder = new TextDecoder(encoding, { ignoreBOM: false });
  for await (const chunk of createReadStream(file))
    yield decoder.decode(chunk as Buffer, { stream: true });
  const rest = decoder.decode();
  if (rest) yield rest;
}

const DELIMITERS = [',', ';', '\t'] as const;

/** The delimiter most lines of the start agree on (a title row above the header may have none). */
function detectDelimiter(sample: string): string {
  const lines = sample
    .split(/\r?\n/)
    .filter((line) => line.trim() !== '')
    .slice(0, 30);
  let best: { delimiter: string; score: number } = { delimiter: ',', score: 0 };
  for (const delimiter of DELIMITERS) {
    // Quoted parts may hold the delimiter: they are left out of the count.
    const counts = lines
      .map((line) => line.replace(/"[^"]*"/g, '').split(delimiter).length - 1)
      .filter((count) => count > 0);
    const frequency = new Map<number, number>();
    for (const count of counts) frequency.set(count, (frequency.get(count) ?? 0) + 1);
    const [commonCount, lineCount] = [...frequency].sort(
      (a, b) => b[1] - a[1] || b[0] - a[0],
    )[0] ?? [0, 0];
    const score = lineCount * 1000 + commonCount;
    if (score > best.score) best = { delimiter, score };
  }
  return best.delimiter;
}

/** A CSV's rows: RFC 4180 quotes, CRLF or LF, its delimiter and encoding detected. Row 1 is the file's first line. */
export async function* readCsv(file: string, encoding: Encoding): AsyncGenerator<SheetRow> {
  let sample = '';
  for await (const text of decoded(file, encoding)) {
    sample += text;
    if (sample.length >= SNIFF_BYTES) break;
  }
  const parser = Readable.from(decoded(file, encoding)).pipe(
    parse({
      delimiter: detectDelimiter(sample.replace(/^\ufeff/, '')),
      bom: true,
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: false,
    }),
  );
  let row = 0;
  try {
    for await (const record of parser) {
      row += 1;
      yield { row, cells: (record as string[]).map((cell) => cell) };
    }
  } catch (error) {
    if (error instanceof Error && 'code' in error && String(error.code).startsWith('CSV_')) {
      throw new AppError(
        'VALIDATION_ERROR',
        m.import_csv_unreadable({ row: row + 1, reason: error.message }),
      );
    }
    throw error;
  }
}

/**
 * Refuses a zip that would inflate past MAX_INFLATED_BYTES, before anything else inflates it: yauzl
 * holds every entry to the size the zip's directory declares, and the declared sizes are added up
 * first, so neither a lying entry nor a honest bomb gets far.
 */
async function checkZip(file: string): Promise<void> {
  let zip: yauzl.ZipFile;
  try {
    zip = await yauzl.openPromise(file, {
      lazyEntries: true,
      validateEntrySizes: true,
      autoClose: false,
    });
  } catch {
    throw notAFormat();
  }
  // Before any entry is read, the cursor stands at the central directory.
  const directoryOffset = zip.readEntryCursor as unknown as number;
  try {
    const entries: yauzl.Entry[] = [];
    let declared = 0;
    for await (const entry of zip.eachEntry()) {
      entries.push(entry);
      declared += entry.uncompressedSize;
      if (entries.length > MAX_ZIP_ENTRIES || declared > MAX_INFLATED_BYTES)
        throw new AppError('VALIDATION_ERROR', m.import_zip_too_large());
    }
    if (!entries.some((entry) => entry.fileName === 'xl/workbook.xml')) throw notAFormat();
    await checkContiguous(zip, entries, directoryOffset);
    for (const entry of entries) {
      if (entry.fileName.endsWith('/')) continue;
      const stream = await zip.openReadStreamPromise(entry);
      try {
        for await (const chunk of stream) void chunk;
      } catch {
        // An entry inflating past its declared size, or broken.
        throw new AppError('VALIDATION_ERROR', m.import_zip_too_large());
      }
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw notAFormat();
  } finally {
    zip.close();
  }
}

/** A data descriptor after an entry's data: 12 to 24 bytes, with or without its signature, zip64 or not. */
const DESCRIPTOR_MAX_BYTES = 24;

/**
 * The directory's entries fill the file from its start to the directory, one after another: the
 * workbook reader, which reads the entries' own headers in sequence, finds no entry the directory
 * does not list (and that the size checks above never saw).
 */
async function checkContiguous(
  zip: yauzl.ZipFile,
  entries: yauzl.Entry[],
  directoryOffset: number,
): Promise<void> {
  let expected = 0;
  let slack = 0;
  for (const entry of [...entries].sort(
    (a, b) => a.relativeOffsetOfLocalHeader - b.relativeOffsetOfLocalHeader,
  )) {
    const offset = entry.relativeOffsetOfLocalHeader;
    if (offset < expected || offset > expected + slack)
      throw new AppError('VALIDATION_ERROR', m.import_zip_too_large());
    const { fileDataStart } = await zip.readLocalFileHeaderPromise(entry, { minimal: true });
    expected = fileDataStart + entry.compressedSize;
    slack = entry.generalPurposeBitFlag & 0x8 ? DESCRIPTOR_MAX_BYTES : 0;
  }
  if (directoryOffset < expected || directoryOffset > expected + slack)
    throw new AppError('VALIDATION_ERROR', m.import_zip_too_large());
}

/** An exceljs cell value as a cell: formulas are kept as their text, never run. */
function cellOf(value: CellValue): Cell {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' || typeof value === 'number' || value instanceof Date) return value;
  if (typeof value === 'boolean') return String(value);
  if (typeof value === 'object') {
    if ('richText' in value) return value.richText.map((part) => part.text).join('');
    if ('formula' in value || 'sharedFormula' in value) {
      const formula = 'formula' in value ? value.formula : value.sharedFormula;
      return `=${formula}`;
    }
    if ('text' in value && typeof value.text === 'string') return value.text;
    if ('error' in value) return String(value.error);
  }
  return null;
}

/**
 * exceljs's streaming reader, as far as it is used here: its parsers of a workbook's parts. Its own
 * reading of the zip (4.4.0, the latest release) loses the archive's last entry now and then, often
 * xl/workbook.xml: here one read in 300 of a one-tab workbook failed, and nearly every read of a
 * six-tab one (tests/in-process/database/imports.test.ts). So the parts are read from the zip's
 * directory with yauzl, in the order they depend on, and handed to these parsers as text: exceljs
 * decodes each chunk alone, which breaks a letter split between two chunks.
 */
interface WorkbookPartsReader {
  model?: { sheets?: { rId: string }[] };
  workbookRels?: { Id: string; Target: string }[];
  _parseRels(part: Readable): Promise<void>;
  _parseWorkbook(part: Readable): Promise<void>;
  _parseSharedStrings(part: Readable): AsyncGenerator<unknown>;
  _parseStyles(part: Readable): Promise<void>;
  _parseWorksheet(
    part: Readable,
    sheetNo: string,
  ): Generator<{ eventType: string; value: AsyncIterable<Row> }>;
}

/** A relationship's target as a path in the zip: relative to xl/, or from the package's root. */
function partPath(target: string): string {
  return path.posix.normalize(target.startsWith('/') ? target.slice(1) : `xl/${target}`);
}

/** The first worksheet's rows (the first tab), dates and numbers as their cells hold them. */
export async function* readXlsx(file: string): AsyncGenerator<SheetRow> {
  await checkZip(file);
  // Loaded by the first XLSX import, not by every start: exceljs is a seventh of the server's start-up CPU.
  const { default: ExcelJS } = await import('exceljs');
  let zip: yauzl.ZipFile;
  try {
    zip = await yauzl.openPromise(file, { lazyEntries: true, autoClose: false });
  } catch {
    throw notAFormat();
  }
  try {
    const entries = new Map<string, yauzl.Entry>();
    for await (const entry of zip.eachEntry()) entries.set(entry.fileName, entry);
    const part = async (name: string): Promise<Readable | null> => {
      const entry = entries.get(name);
      if (!entry) return null;
      const stream = await zip.openReadStreamPromise(entry);
      return stream.setEncoding('utf8');
    };
    const reader = new ExcelJS.stream.xlsx.WorkbookReader(file, {
      sharedStrings: 'cache',
      styles: 'cache',
      hyperlinks: 'ignore',
      worksheets: 'emit',
      entries: 'ignore',
    }) as unknown as WorkbookPartsReader;
    const rels = await part('xl/_rels/workbook.xml.rels');
    if (!rels) throw notAFormat();
    await reader._parseRels(rels);
    const workbook = await part('xl/workbook.xml');
    if (!workbook) throw notAFormat();
    await reader._parseWorkbook(workbook);
    const sharedStrings = await part('xl/sharedStrings.xml');
    if (sharedStrings)
      for await (const string of reader._parseSharedStrings(sharedStrings)) void string;
    const styles = await part('xl/styles.xml');
    if (styles) await reader._parseStyles(styles);

    const firstSheet = reader.model?.sheets?.[0];
    const target = reader.workbookRels?.find((rel) => rel.Id === firstSheet?.rId)?.Target;
    const sheetPath = target && partPath(target);
    const sheet = sheetPath && (await part(sheetPath));
    if (!sheet) throw notAFormat();
    const sheetNo = /sheet(\d+)\.xml$/.exec(sheetPath)?.[1] ?? '1';
    for (const { value: worksheet } of reader._parseWorksheet(sheet, sheetNo)) {
      for await (const row of worksheet) {
        const values = Array.isArray(row.values) ? row.values.slice(1) : [];
        yield {
          row: row.number,
          cells: Array.from(values, (value) => cellOf(value as CellValue)),
        };
      }
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw notAFormat();
  } finally {
    zip.close();
  }
}

/**
 * Magaya's `<WarehouseReceipt>` elements, through the adapter's reader: a DOCTYPE is refused,
 * nothing is expanded or fetched.
 */
export async function* readMagayaXml(file: string): AsyncGenerator<XmlElement> {
  try {
    yield* readElements(createReadStream(file), 'WarehouseReceipt');
  } catch (error) {
    if (error instanceof XmlRefusedError)
      throw new AppError('VALIDATION_ERROR', m.import_xml_refused({ reason: error.message }));
    throw error;
  }
}
