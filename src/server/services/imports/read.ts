/**
 * An export read into receipts: the header row found (below any title rows), its columns placed, each
 * row read into a package line, and the rows of one receipt number merged into one receipt. A bad row
 * is reported with its spreadsheet row number; its receipt is left out whole, so no receipt lands
 * with a row missing. Only the lines are kept for the whole file: a receipt is made from its lines
 * when it is asked for, so that a large file's receipts are never all held at once.
 */
import { createHash } from 'node:crypto';
import { m } from '~/paraglide/messages.js';
import {
  IMPORT_FIELDS,
  IMPORT_PREVIEW_ROWS,
  REQUIRED_IMPORT_FIELDS,
  type ImportField,
  type ImportMapping,
  type ImportPreviewRow,
  type ImportRowError,
} from '~/shared/imports';
import type { ImportDateOrder } from '../../config';
import { AppError } from '../../errors';
import type { ProviderCommodity } from '../../provider/contract';
import { MAGAYA_STATUSES, readWarehouseReceipt } from '../../provider/magaya/receipt';
import {
  headerSignature,
  isTotal,
  placeColumns,
  recognisedCount,
  unitFactor,
  type ColumnPlaces,
} from './columns';
import { readMagayaXml, type SheetRow } from './formats';
import {
  cellText,
  decideDateOrder,
  noVotes,
  readDate,
  readNumber,
  voteDateOrder,
  type Cell,
} from './values';

/** A receipt as the file gives it; the portal's id, consignee id and version are given when it is written. */
export interface FileReceipt {
  number: string;
  receivedDate: string;
  shipperName: string;
  consigneeName: string;
  pieces: number;
  totalWeightValue: number;
  totalVolumeValue: number;
  destination: string;
  status: string;
  modeOfTransportation: string;
  originName: string;
  commodities: ProviderCommodity[];
}

/**
 * The receipts a file gives that may land (their rows all read), made one at a time when asked for:
 * a caller holds a page of them, never the whole file's.
 */
export interface FileReceipts {
  /** Their numbers, in the order the file first names them. */
  numbers(): IterableIterator<string>;
  /** The receipt of one of `numbers`, made anew at each call. */
  receipt(number: string): FileReceipt;
}

export interface ReadFile {
  headers: string[];
  /** The header row's signature: the key a mapping is saved under (null for XML, whose elements are fixed). */
  signature: string | null;
  mapping: ImportMapping;
  receipts: FileReceipts;
  /** Receipt numbers the file names but that were refused: they are in the file, so a full list keeps them. */
  refusedNumbers: Set<string>;
  errors: ImportRowError[];
  preview: ImportPreviewRow[];
}

/** The header must be among the first rows; title rows above it are skipped. */
const HEADER_SEARCH_ROWS = 30;

const MAX_NUMBER_LENGTH = 40;

/** The fingerprint of what a file said of a receipt: the same file imported again changes nothing. */
export const fingerprintOf = (receipt: FileReceipt) =>
  createHash('sha256').update(JSON.stringify(receipt)).digest('hex');

const round = (value: number, decimals: number) =>
  Math.round(value * 10 ** decimals) / 10 ** decimals;
const statusOf = (text: string) => MAGAYA_STATUSES[text.replace(/\s+/g, '')] ?? text;

/**
 * Too few columns for the fields a receipt needs: 400, naming the fields (`mapping.<field>`) and
 * the headers the file has (`headers.<i>`).
 */
function missingFields(missing: ImportField[], headers: string[]): AppError {
  return new AppError('VALIDATION_ERROR', m.import_fields_missing({ fields: missing.join(', ') }), {
    details: [
      ...missing.map((field) => ({
        field: `mapping.${field}`,
        message: m.import_field_not_placed({ field }),
      })),
      ...headers.map((header, index) => ({ field: `headers.${index}`, message: header })),
    ],
  });
}

/**
 * One row read, its date still as the cell held it until the file's date order is known at its end;
 * then `time` holds the date read (NaN for none: the row is refused) and the cell is let go.
 */
interface RowLine {
  row: number;
  number: string;
  dateCell: Cell;
  time: number;
  shipperName: string;
  consigneeName: string;
  destination: string;
  status: string;
  pieces: number | null;
  weight: number | null;
  volume: number | null;
  trackingNumber: string | null;
  description: string;
  /** A cell other than the date was refused. */
  refused: boolean;
}

/** Texts many rows repeat (a consignee, a status) are kept once: a 100,000-row file holds a few hundred of them. */
const SHARED_TEXTS_MAX = 20_000;

/**
 * Reads a sheet (CSV or XLSX rows). `savedMapping` finds the mapping kept for a header row's signature.
 * Each row is read as it comes; only its date waits for the file's date order.
 */
export async function readSheet(
  rows: AsyncIterable<SheetRow>,
  options: {
    mapping: ImportMapping;
    savedMapping: (signature: string) => Promise<ImportMapping | null>;
    dateOrder: ImportDateOrder;
  },
): Promise<ReadFile> {
  const given = Object.values(options.mapping).map((header) => header.trim().toLowerCase());
  const start: SheetRow[] = [];
  let header: SheetRow | undefined;
  let places: ColumnPlaces = {};
  let headers: string[] = [];
  let signature = '';
  let weightFactor = 1;
  let volumeFactor = 1;
  const totals = { pieces: false, weight: false, volume: false };
  const votes = noVotes();
  const errors: ImportRowError[] = [];
  const lines = new Map<string, RowLine[]>();
  const unnumbered: RowLine[] = [];
  const firstLines: RowLine[] = [];
  const sharedTexts = new Map<string, string>();
  const shared = (text: string) => {
    const known = sharedTexts.get(text);
    if (known !== undefined) return known;
    if (sharedTexts.size < SHARED_TEXTS_MAX) sharedTexts.set(text, text);
    return text;
  };
  const headerOf = (field: ImportField) => headers[places[field]!] ?? field;

  const takeHeader = async (row: SheetRow) => {
    header = row;
    headers = row.cells.map(cellText);
    signature = headerSignature(headers);
    const mapping = { ...((await options.savedMapping(signature)) ?? {}), ...options.mapping };
    places = placeColumns(headers, mapping);
    const missing = REQUIRED_IMPORT_FIELDS.filter((field) => places[field] === undefined);
    if (missing.length > 0) throw missingFields(missing, headers);
    if (places.totalWeightValue !== undefined)
      weightFactor = unitFactor(headerOf('totalWeightValue'));
    if (places.totalVolumeValue !== undefined)
      volumeFactor = unitFactor(headerOf('totalVolumeValue'));
    totals.pieces = places.pieces !== undefined && isTotal(headerOf('pieces'));
    totals.weight = places.totalWeightValue !== undefined && isTotal(headerOf('totalWeightValue'));
    totals.volume = places.totalVolumeValue !== undefined && isTotal(headerOf('totalVolumeValue'));
  };

  const keep = ({ row, cells }: SheetRow) => {
    if (cells.every((cell) => cellText(cell) === '')) return;
    const at = (field: ImportField): Cell =>
      places[field] === undefined ? null : (cells[places[field]!] ?? null);
    const text = (field: ImportField) => cellText(at(field));
    let refused = false;
    const refuse = (field: ImportField, message: string) => {
      errors.push({ row, column: headerOf(field), message });
      refused = true;
    };
    const number = text('number');
    if (number === '') refuse('number', m.import_row_no_number());
    else if (number.length > MAX_NUMBER_LENGTH)
      refuse('number', m.import_row_number_too_long({ max: MAX_NUMBER_LENGTH }));
    const dateCell = at('receivedDate');
    voteDateOrder(dateCell, votes);
    const amount = (field: ImportField, factor: number, whole: boolean) => {
      const cell = at(field);
      if (cellText(cell) === '') return null;
      const value = readNumber(cell);
      if (value === null || value < 0 || (whole && !Number.isInteger(value))) {
        refuse(
          field,
          whole
            ? m.import_row_bad_count({ value: cellText(cell) })
            : m.import_row_bad_number({ value: cellText(cell) }),
        );
        return null;
      }
      return value * factor;
    };
    const line: RowLine = {
      row,
      number,
      dateCell: typeof dateCell === 'string' ? shared(dateCell) : dateCell,
      time: Number.NaN,
      shipperName: shared(text('shipperName')),
      consigneeName: shared(text('consigneeName')),
      destination: shared(text('destination')),
      status: shared(statusOf(text('status'))),
      pieces: amount('pieces', 1, true),
      weight: amount('totalWeightValue', weightFactor, false),
      volume: amount('totalVolumeValue', volumeFactor, false),
      trackingNumber: text('trackingNumber') || null,
      description: shared(text('description')),
      refused,
    };
    if (firstLines.length < IMPORT_PREVIEW_ROWS) firstLines.push(line);
    if (!number) unnumbered.push(line);
    else {
      const group = lines.get(number);
      if (group) group.push(line);
      else lines.set(number, [line]);
    }
  };

  for await (const row of rows) {
    if (header) {
      keep(row);
      continue;
    }
    const texts = row.cells.map(cellText);
    const known =
      recognisedCount(texts) +
      texts.filter((text) => text !== '' && given.includes(text.toLowerCase())).length;
    if (known >= 2) {
      await takeHeader(row);
      continue;
    }
    start.push(row);
    if (start.length >= HEADER_SEARCH_ROWS) break;
  }
  if (!header) {
    // No header the portal knows: the first row with three or more cells is taken as the header, for the admin to map.
    const guess = start.find(
      (row) => row.cells.filter((cell) => cellText(cell) !== '').length >= 3,
    );
    if (!guess) throw new AppError('VALIDATION_ERROR', m.import_no_header());
    await takeHeader(guess);
    for (const row of start.filter((candidate) => candidate.row > guess.row)) keep(row);
    for await (const row of rows) keep(row);
  }

  const dateOrder = decideDateOrder(votes, options.dateOrder);
  /** Each row's date, read once the order is known: a row whose date cannot be read is refused. */
  const readTime = (line: RowLine) => {
    const date = readDate(line.dateCell, dateOrder);
    if (date) line.time = date.getTime();
    else {
      errors.push({
        row: line.row,
        column: headerOf('receivedDate'),
        message: m.import_row_bad_date({ value: cellText(line.dateCell) }),
      });
      line.refused = true;
    }
    line.dateCell = null;
  };
  for (const line of unnumbered) readTime(line);
  const refusedNumbers = new Set<string>();
  for (const [number, group] of lines) {
    for (const line of group) readTime(line);
    if (group.some((line) => line.refused)) {
      refusedNumbers.add(number);
      lines.delete(number);
    }
  }
  const isoDate = (line: RowLine) =>
    Number.isNaN(line.time) ? null : new Date(line.time).toISOString();
  const preview: ImportPreviewRow[] = firstLines.map((line) => ({
    row: line.row,
    number: line.number,
    receivedDate: isoDate(line),
    shipperName: line.shipperName,
    consigneeName: line.consigneeName,
    pieces: line.pieces ?? 1,
    totalWeightValue: round(line.weight ?? 0, 2),
    totalVolumeValue: round(line.volume ?? 0, 3),
    destination: line.destination,
    status: line.status,
    trackingNumber: line.trackingNumber,
    description: line.description,
  }));

  const sum = (values: (number | null)[]) =>
    values.reduce<number>((total, value) => total + (value ?? 0), 0);
  /** A receipt made from its lines (its fields in this order: the fingerprints of earlier imports depend on it). */
  const receiptOf = (number: string): FileReceipt => {
    const group = lines.get(number);
    if (!group) throw new Error(`No receipt ${number} in the file`);
    const [first] = group as [RowLine];
    return {
      number,
      receivedDate: isoDate(first)!,
      shipperName: first.shipperName,
      consigneeName: first.consigneeName,
      pieces: totals.pieces ? (first.pieces ?? 0) : sum(group.map((line) => line.pieces ?? 1)),
      totalWeightValue: round(
        totals.weight ? (first.weight ?? 0) : sum(group.map((line) => line.weight)),
        2,
      ),
      totalVolumeValue: round(
        totals.volume ? (first.volume ?? 0) : sum(group.map((line) => line.volume)),
        3,
      ),
      destination: first.destination,
      status: first.status,
      modeOfTransportation: '',
      originName: '',
      commodities: group.map((line) => ({
        description: line.description,
        trackingNumber: line.trackingNumber,
        pieces: totals.pieces ? 0 : (line.pieces ?? 1),
        totalWeightValue: totals.weight ? 0 : round(line.weight ?? 0, 2),
        totalVolumeValue: totals.volume ? 0 : round(line.volume ?? 0, 3),
      })),
    };
  };
  const receipts: FileReceipts = { numbers: () => lines.keys(), receipt: receiptOf };
  // Reported by row, and within a row in the order of the fields.
  const fieldOrder = (column: string) =>
    IMPORT_FIELDS.findIndex((field) => places[field] !== undefined && headerOf(field) === column);
  errors.sort((a, b) => a.row - b.row || fieldOrder(a.column) - fieldOrder(b.column));
  const mapping = Object.fromEntries(
    IMPORT_FIELDS.filter((field) => places[field] !== undefined).map((field) => [
      field,
      headerOf(field),
    ]),
  );
  return { headers, signature, mapping, receipts, refusedNumbers, errors, preview };
}

/** Magaya's XML export, read with the adapter's mapping; a receipt's row is its place among the file's receipts. */
export async function readMagayaFile(file: string): Promise<ReadFile> {
  const receipts = new Map<string, FileReceipt>();
  const errors: ImportRowError[] = [];
  const preview: ImportPreviewRow[] = [];
  const refusedNumbers = new Set<string>();
  let row = 0;
  // Ids are given when the receipts are written; the adapter's reading needs some meanwhile.
  const ids = { receiptId: () => 1, consigneeId: () => 1 };
  for await (const element of readMagayaXml(file)) {
    row += 1;
    const reading = readWarehouseReceipt(element, { ids, updatedAt: '' });
    if (reading.kind !== 'receipt') {
      if (reading.kind === 'unidentified')
        errors.push({ row, column: 'GUID', message: m.import_row_no_guid() });
      continue;
    }
    const { receipt } = reading;
    if (!receipt.number || receipt.number.length > MAX_NUMBER_LENGTH) {
      errors.push({
        row,
        column: 'Number',
        message: receipt.number
          ? m.import_row_number_too_long({ max: MAX_NUMBER_LENGTH })
          : m.import_row_no_number(),
      });
      continue;
    }
    if (!receipt.receivedDate) {
      errors.push({ row, column: 'CreatedOn', message: m.import_row_bad_date({ value: '' }) });
      refusedNumbers.add(receipt.number);
      continue;
    }
    if (receipts.has(receipt.number)) continue;
    const fileReceipt: FileReceipt = {
      number: receipt.number,
      receivedDate: receipt.receivedDate,
      shipperName: receipt.shipperName,
      consigneeName: receipt.consigneeName,
      pieces: receipt.pieces,
      totalWeightValue: receipt.totalWeightValue,
      totalVolumeValue: receipt.totalVolumeValue,
      destination: receipt.destination,
      status: receipt.status,
      modeOfTransportation: receipt.modeOfTransportation,
      originName: receipt.origin.name,
      commodities: receipt.commodities,
    };
    receipts.set(receipt.number, fileReceipt);
    if (preview.length < IMPORT_PREVIEW_ROWS) {
      const [commodity] = receipt.commodities;
      preview.push({
        row,
        number: receipt.number,
        receivedDate: receipt.receivedDate,
        shipperName: receipt.shipperName,
        consigneeName: receipt.consigneeName,
        pieces: receipt.pieces,
        totalWeightValue: receipt.totalWeightValue,
        totalVolumeValue: receipt.totalVolumeValue,
        destination: receipt.destination,
        status: receipt.status,
        trackingNumber: commodity?.trackingNumber ?? null,
        description: commodity?.description ?? '',
      });
    }
  }
  if (row === 0) throw new AppError('VALIDATION_ERROR', m.import_xml_no_receipts());
  return {
    headers: [],
    signature: null,
    mapping: {},
    receipts: { numbers: () => receipts.keys(), receipt: (number) => receipts.get(number)! },
    refusedNumbers,
    errors,
    preview,
  };
}
