/**
 * A Magaya warehouse receipt (`<WarehouseReceipt>`, namespace http://www.magaya.com/XMLSchema/V1) as
 * the portal's ProviderReceipt, and a Magaya attachment entry as a ProviderAttachment. Used by the
 * SOAP adapter and by a file import alike. Every element is read by local name and may be missing;
 * docs/provider-magaya.md has the table and the choices made where Magaya's reference is not public.
 */
import type { AttachmentKind } from '~/shared/attachments';
import type { ProviderAttachment, ProviderCommodity, ProviderReceipt } from '../contract';
import { childOf, childrenOf, textOf, type XmlElement } from './xml';

export const MAGAYA_NAMESPACE = 'http://www.magaya.com/XMLSchema/V1';

/** International avoirdupois pound: exactly 0.45359237 kg. */
export const POUNDS_PER_KILOGRAM = 1 / 0.45359237;
/** International foot: exactly 0.3048 m. */
export const CUBIC_FEET_PER_CUBIC_METRE = 1 / 0.3048 ** 3;

/** Magaya's receipt statuses and the portal's (shared/format.ts labels them in English and Dutch). */
export const MAGAYA_STATUSES: Readonly<Record<string, string>> = {
  Pending: 'Pending',
  OnHand: 'On hand',
  InProcess: 'In process',
  InTransit: 'In-Transit',
  AtDestination: 'At destination',
  Delivered: 'Delivered',
};

/** The portal's numeric ids for Magaya's GUIDs (the adapter keeps the map; a file import has its own). */
export interface MagayaIds {
  receiptId(guid: string): number;
  consigneeId(guid: string): number;
}

export type MagayaReceiptReading =
  /** A receipt customers may see. */
  | {
      kind: 'receipt';
      guid: string;
      consignee: { guid: string; name: string } | null;
      hasAttachments: boolean;
      receipt: ProviderReceipt;
    }
  /**
   * IsOnline=false: the forwarder keeps it from its customers' online view, so the portal shows it
   * to no one (a mirrored one is removed).
   */
  | { kind: 'offline'; guid: string }
  /** No GUID: nothing identifies it, so it cannot be mirrored. */
  | { kind: 'unidentified' };

type Dimension = 'weight' | 'volume';

const UNITS: Record<
  Dimension,
  { native: readonly string[]; metric: readonly string[]; factor: number }
> = {
  weight: { native: ['lb', 'lbs'], metric: ['kg', 'kgs'], factor: POUNDS_PER_KILOGRAM },
  volume: {
    native: ['ft3', 'ft³', 'cft', 'cuft'],
    metric: ['m3', 'm³', 'cbm'],
    factor: CUBIC_FEET_PER_CUBIC_METRE,
  },
};
/** Decimals kept after converting: the sandbox's and the spec's precision (0.01 lb, 0.001 ft³). */
const DECIMALS: Record<Dimension, number> = { weight: 2, volume: 3 };

const round = (value: number, decimals: number) =>
  Math.round(value * 10 ** decimals) / 10 ** decimals;

/** A decimal as Magaya writes it (a dot, no grouping); anything else reads as absent. */
function decimal(text: string): number | null {
  if (text === '') return null;
  const value = Number(text);
  return Number.isFinite(value) ? value : null;
}

/** The receipt's own system of units, for a weight or volume that names none. */
const isMetric = (receipt: XmlElement) =>
  ['metric', 'international', 'si'].includes(textOf(receipt, 'MeasurementUnits').toLowerCase());

/**
 * A weight in lb or a volume in ft³, from an element with a `Unit` attribute. Without one, the
 * receipt's MeasurementUnits decides. A unit the portal does not know reads as absent, rather than
 * as a figure in the wrong unit.
 */
function measure(
  element: XmlElement | undefined,
  dimension: Dimension,
  metricReceipt: boolean,
): number | null {
  const value = decimal(element?.text.trim() ?? '');
  if (value === null || value < 0) return null;
  const unit = element?.attributes.Unit?.trim().toLowerCase() ?? '';
  const units = UNITS[dimension];
  const metric =
    unit === ''
      ? metricReceipt
      : units.metric.includes(unit)
        ? true
        : units.native.includes(unit)
          ? false
          : null;
  if (metric === null) return null;
  return round(metric ? value * units.factor : value, DECIMALS[dimension]);
}

/** A port by its name; its code when it has no name. */
const portName = (port: XmlElement | undefined) =>
  textOf(port, 'Name') || port?.attributes.Code?.trim() || '';

/** "40 - Air" when Magaya sends a code and a description, as its screens show a mode. */
function modeOf(mode: XmlElement | undefined): string {
  const description =
    textOf(mode, 'Description') ||
    textOf(mode, 'Name') ||
    (mode?.children.length === 0 ? mode.text.trim() : '');
  const code = mode?.attributes.Code?.trim() ?? '';
  return code && description ? `${code} - ${description}` : description || code;
}

const flag = (element: XmlElement, name: string, absent: boolean) => {
  const value = textOf(element, name).toLowerCase();
  return value === '' ? absent : value === 'true' || value === '1';
};

/** An ISO 8601 time from Magaya's date-time (with or without an offset); null when it is none. */
function isoTime(text: string): string | null {
  if (text === '') return null;
  const time = new Date(text);
  return Number.isNaN(time.getTime()) ? null : time.toISOString();
}

function packageOf(
  item: XmlElement,
  carrierTracking: string,
  metricReceipt: boolean,
): ProviderCommodity {
  const pieces = decimal(textOf(item, 'Pieces'));
  return {
    description:
      textOf(item, 'Description') || textOf(item, 'PackageName') || textOf(item, 'PartNumber'),
    trackingNumber: textOf(item, 'TrackingNumber') || carrierTracking || null,
    // An item line is at least one piece when Magaya leaves the count out.
    pieces: pieces === null ? 1 : Math.max(0, Math.round(pieces)),
    totalWeightValue: measure(childOf(item, 'Weight'), 'weight', metricReceipt) ?? 0,
    totalVolumeValue: measure(childOf(item, 'Volume'), 'volume', metricReceipt) ?? 0,
  };
}

const sum = (values: number[], decimals: number) =>
  round(
    values.reduce((total, value) => total + value, 0),
    decimals,
  );

/**
 * One `<WarehouseReceipt>` as the portal mirrors it. `updatedAt` is the time it was read: Magaya's
 * receipt carries no modification time the public clients agree on.
 */
export function readWarehouseReceipt(
  element: XmlElement,
  context: { ids: MagayaIds; updatedAt: string },
): MagayaReceiptReading {
  const guid = (element.attributes.GUID ?? textOf(element, 'GUID')).trim();
  if (!guid) return { kind: 'unidentified' };
  if (!flag(element, 'IsOnline', true)) return { kind: 'offline', guid };
  const metric = isMetric(element);
  const carrierTracking = textOf(element, 'CarrierTrackingNumber');
  const commodities = childrenOf(childOf(element, 'Items'), 'Item').map((item) =>
    packageOf(item, carrierTracking, metric),
  );
  const consigneeElement = childOf(element, 'Consignee');
  const consigneeGuid = (
    consigneeElement?.attributes.GUID ?? textOf(consigneeElement, 'GUID')
  ).trim();
  const consigneeName = textOf(element, 'ConsigneeName') || textOf(consigneeElement, 'Name');
  const consignee = consigneeGuid
    ? { guid: consigneeGuid, name: textOf(consigneeElement, 'Name') || consigneeName }
    : null;
  const status = textOf(element, 'Status');
  const pieces = decimal(textOf(element, 'TotalPieces'));
  const receipt: ProviderReceipt = {
    id: context.ids.receiptId(guid),
    number: textOf(element, 'Number'),
    receivedDate: isoTime(textOf(element, 'CreatedOn')) ?? '',
    shipperName: textOf(element, 'ShipperName') || textOf(childOf(element, 'Shipper'), 'Name'),
    consigneeId: consignee ? context.ids.consigneeId(consignee.guid) : null,
    consigneeName,
    pieces:
      pieces === null
        ? commodities.reduce((total, item) => total + item.pieces, 0)
        : Math.max(0, Math.round(pieces)),
    totalWeightValue:
      measure(childOf(element, 'TotalWeight'), 'weight', metric) ??
      sum(
        commodities.map((item) => item.totalWeightValue),
        DECIMALS.weight,
      ),
    totalVolumeValue:
      measure(childOf(element, 'TotalVolume'), 'volume', metric) ??
      sum(
        commodities.map((item) => item.totalVolumeValue),
        DECIMALS.volume,
      ),
    destination: portName(childOf(element, 'DestinationPort')),
    status: MAGAYA_STATUSES[status] ?? status,
    modeOfTransportation: modeOf(childOf(element, 'ModeOfTransportation')),
    origin: { name: portName(childOf(element, 'OriginPort')) },
    commodities,
    updatedAt: context.updatedAt,
  };
  return {
    kind: 'receipt',
    guid,
    consignee,
    hasAttachments: flag(element, 'HasAttachments', false),
    receipt,
  };
}

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
  tif: 'image/tiff',
  tiff: 'image/tiff',
  bmp: 'image/bmp',
  pdf: 'application/pdf',
  txt: 'text/plain',
  csv: 'text/csv',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xls: 'application/vnd.ms-excel',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

/** A Magaya attachment entry (`<Attachment>` of `<Attachments>`) as the portal lists it. */
export interface MagayaAttachmentEntry {
  ownerGuid: string;
  attachment: ProviderAttachment;
}

/**
 * An entry of GetAllAttachments; null for an internal one (customers never see those, so the portal
 * neither lists nor fetches them) and for one without an Identifier.
 */
export function readAttachmentEntry(element: XmlElement): MagayaAttachmentEntry | null {
  const identifier = textOf(element, 'Identifier');
  if (!identifier || flag(element, 'IsInternal', false)) return null;
  const written = textOf(element, 'Extension').toLowerCase();
  const extension = written.startsWith('.') ? written.slice(1) : written;
  const name = textOf(element, 'Name') || identifier;
  const fileName =
    extension && !name.toLowerCase().endsWith(`.${extension}`) ? `${name}.${extension}` : name;
  const isImage = flag(element, 'IsImage', false);
  const kind: AttachmentKind = isImage ? 'photo' : 'other';
  const size = decimal(textOf(element, 'Size'));
  return {
    ownerGuid: textOf(element, 'OwnerGUID'),
    attachment: {
      id: identifier,
      kind,
      fileName,
      contentType:
        CONTENT_TYPES[extension] ?? (isImage ? 'image/jpeg' : 'application/octet-stream'),
      size: size === null ? 0 : Math.max(0, Math.round(size)),
      createdAt: isoTime(textOf(element, 'CreatedOn')),
    },
  };
}
