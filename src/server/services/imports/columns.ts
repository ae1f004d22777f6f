/**
 * Reading an export's header row: which column is which field (English, Dutch and Magaya's element
 * names), in which unit its weights and volumes are, and the header row's signature, by which an
 * admin's mapping is found again for the next file of the same source.
 */
import { createHash } from 'node:crypto';
import { IMPORT_FIELDS, type ImportField, type ImportMapping } from '~/shared/imports';
import { CUBIC_FEET_PER_CUBIC_METRE, POUNDS_PER_KILOGRAM } from '../../provider/magaya/receipt';

/**
 * Headers as normalizeHeader leaves them, per field. Magaya's element names are split at their
 * capitals ("TotalWeight": "total weight").
 */
const ALIASES: Readonly<Record<ImportField, readonly string[]>> = {
  number: [
    'number',
    'receipt',
    'receipt number',
    'receipt no',
    'receipt nr',
    'wr',
    'wr number',
    'wr no',
    'wr nr',
    'warehouse receipt',
    'warehouse receipt number',
    'warehouse receipt no',
    'ontvangstbewijs',
    'ontvangstbewijs nummer',
    'ontvangstnummer',
    'bonnummer',
    'nummer',
    'wr nummer',
  ],
  receivedDate: [
    'received date',
    'date received',
    'received',
    'received on',
    'receipt date',
    'date',
    'created on',
    'creation date',
    'ontvangstdatum',
    'datum ontvangst',
    'ontvangen',
    'ontvangen op',
    'datum',
  ],
  shipperName: [
    'shipper',
    'shipper name',
    'sender',
    'supplier',
    'verzender',
    'afzender',
    'verzender naam',
    'leverancier',
  ],
  consigneeName: [
    'consignee',
    'consignee name',
    'customer',
    'customer name',
    'client',
    'geadresseerde',
    'ontvanger',
    'klant',
    'klantnaam',
    'geadresseerde naam',
  ],
  pieces: [
    'pieces',
    'pcs',
    'pc',
    'qty',
    'quantity',
    'total pieces',
    'stuks',
    'aantal',
    'colli',
    'aantal stuks',
    'totaal stuks',
  ],
  totalWeightValue: [
    'weight',
    'total weight',
    'gross weight',
    'wt',
    'gewicht',
    'totaal gewicht',
    'totaalgewicht',
    'brutogewicht',
    'bruto gewicht',
  ],
  totalVolumeValue: [
    'volume',
    'total volume',
    'cubic',
    'cube',
    'vol',
    'totaal volume',
    'totaalvolume',
    'inhoud volume',
  ],
  destination: ['destination', 'dest', 'destination port', 'bestemming', 'plaats van bestemming'],
  status: ['status', 'state', 'toestand'],
  trackingNumber: [
    'tracking',
    'tracking number',
    'tracking no',
    'tracking nr',
    'carrier tracking number',
    'carrier tracking',
    'trackingnummer',
    'tracking nummer',
    'volgnummer',
    'zendingnummer',
  ],
  description: [
    'description',
    'contents',
    'goods',
    'commodity',
    'package description',
    'omschrijving',
    'beschrijving',
    'inhoud',
    'goederen',
  ],
};

const FIELD_OF_ALIAS: ReadonlyMap<string, ImportField> = new Map(
  IMPORT_FIELDS.flatMap((field) => ALIASES[field].map((alias) => [alias, field] as const)),
);

/** A header's unit, converted to the portal's lb and ft³. */
const UNITS: readonly { pattern: RegExp; factor: number }[] = [
  { pattern: /\b(kg|kgs|kilo|kilos|kilogram|kilograms)\b/, factor: POUNDS_PER_KILOGRAM },
  { pattern: /\b(lb|lbs|pound|pounds)\b/, factor: 1 },
  { pattern: /(\bm3\b|m³|\bcbm\b|cubic met)/, factor: CUBIC_FEET_PER_CUBIC_METRE },
  { pattern: /(\bcu ?ft\b|\bft3\b|ft³|\bcft\b|cubic f)/, factor: 1 },
];

/**
 * Lower case, Magaya's capitals split, units and punctuation dropped, spaces single: what aliases
 * are compared with.
 */
export function normalizeHeader(header: string): string {
  return header
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .replace(/\(.*?\)|\[.*?\]/g, ' ')
    .replace(/\b(kg|kgs|lb|lbs|m3|cbm|cu ?ft|ft3|cft)\b|m³|ft³/g, ' ')
    .replace(/#/g, ' no ')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** The factor a header's unit converts by (1 when it names none, or lb and ft³ themselves). */
export function unitFactor(header: string): number {
  const lower = header.toLowerCase();
  return UNITS.find(({ pattern }) => pattern.test(lower))?.factor ?? 1;
}

/** The field a header names, if the portal knows it. */
export const fieldOfHeader = (header: string): ImportField | undefined =>
  FIELD_OF_ALIAS.get(normalizeHeader(header));

/** A receipt-level figure ("Total weight"), rather than one package's, which rows of one receipt add up. */
export const isTotal = (header: string) => /\b(total|totaal)/.test(header.toLowerCase());

/** The SHA-256 of the header row: one source's exports share it. */
export function headerSignature(headers: readonly string[]): string {
  return createHash('sha256')
    .update(headers.map((header) => header.trim().toLowerCase()).join('\u0001'))
    .digest('hex');
}

/** Where each field is: the index of its column. */
export type ColumnPlaces = Partial<Record<ImportField, number>>;

/**
 * The columns of a header row: a mapping's headers first (the admin's, or the one saved for this
 * source), then the headers the portal recognises. A mapping naming a header the row lacks places nothing.
 */
export function placeColumns(headers: readonly string[], mapping: ImportMapping): ColumnPlaces {
  const places: ColumnPlaces = {};
  const taken = new Set<number>();
  for (const field of IMPORT_FIELDS) {
    const header = mapping[field];
    if (header === undefined) continue;
    const index = headers.findIndex(
      (candidate) => candidate.trim().toLowerCase() === header.trim().toLowerCase(),
    );
    if (index >= 0) {
      places[field] = index;
      taken.add(index);
    }
  }
  headers.forEach((header, index) => {
    const field = fieldOfHeader(header);
    if (field && places[field] === undefined && !taken.has(index)) {
      places[field] = index;
      taken.add(index);
    }
  });
  return places;
}

/** How many of a row's cells are headers the portal knows: the header row is the first where two or more are. */
export const recognisedCount = (cells: readonly string[]) =>
  cells.filter((cell) => fieldOfHeader(cell) !== undefined).length;
