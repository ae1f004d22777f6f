/**
 * The sandbox's data, generated from a seed: receipts over the last 13 months (a handful always in
 * the current week and month), their packages and the warehouse's arrival scans. Receipts are kept
 * compact; a receipt's packages are derived from (seed, id) each time it is served, so 100,000
 * receipts cost little memory and time.
 */
import type {
  PackageScan,
  ProviderCommodity,
  ProviderConsignee,
  ProviderReceipt,
} from '../contract';
import {
  CANCELLED,
  CONSIGNEE_NAMES,
  DESTINATIONS,
  GOODS,
  LIFECYCLE,
  MODES,
  ON_HOLD,
  PENDING,
  ROUTES,
  SCAN_LOCATIONS,
  SHIPPERS,
  STEP_DAYS,
  WAREHOUSE_STATUS,
  type Carrier,
  type Region,
} from './catalog';
import { cumulativeWeights, mixSeed, Random } from './random';
import { DAY_MS } from '~/shared/constants';

const HOUR_MS = 3_600_000;
/** Received dates reach back this far: inside 13 calendar months, whatever today is. */
export const SPREAD_DAYS = 390;
const FIRST_RECEIPT_ID = 100_001;
const FIRST_CONSIGNEE_ID = 101;
export const FINAL_STAGE = 4;

/** Independent random streams per purpose. */
export const STREAM = {
  dates: 1,
  receipt: 2,
  packages: 3,
  scans: 4,
  orphans: 5,
  consignees: 6,
  window: 7,
  photos: 8,
  deliveries: 9,
} as const;

export const Hold = { None: 0, OnHold: 1, Cancelled: 2 } as const;
export type Hold = (typeof Hold)[keyof typeof Hold];

/** One receipt as the sandbox keeps it; `receiptOf` turns it into the wire format. */
export interface SandboxRecord {
  id: number;
  receivedAt: number;
  updatedAt: number;
  shipper: number;
  consignee: number;
  route: number;
  mode: string;
  destination: string;
  /** -1 Pending, 0 at the origin warehouse, then the route's lifecycle up to FINAL_STAGE (Delivered). */
  stage: number;
  hold: Hold;
  packages: number;
  pieces: number;
  weightCents: number;
  volumeMilli: number;
  /** A pre-alerted package the warehouse received: the receipt's one package is that one. */
  prealerted?: { trackingNumber: string; shipper: string; description: string };
}

export interface SandboxData {
  consignees: ProviderConsignee[];
  /** Sorted by id, which follows the received date. */
  records: SandboxRecord[];
  /** Arrival scans by upper-cased tracking number. */
  scans: Map<string, PackageScan[]>;
  /** Tracking numbers with scans that are on no receipt (yet). */
  orphanTrackingNumbers: string[];
  /** Tracking numbers with scans that are on a receipt. */
  scannedPackages: { trackingNumber: string; receiptId: number }[];
}

/** Shipper indices and their cumulative shares: all of them, or one region's. */
function shippersOf(region?: Region) {
  const indices = SHIPPERS.flatMap((shipper, index) =>
    region === undefined || shipper.region === region ? [index] : [],
  );
  return { indices, weights: cumulativeWeights(indices.map((index) => SHIPPERS[index]!.share)) };
}
const ALL_SHIPPERS = shippersOf();
const REGION_SHIPPERS: Record<Region, ReturnType<typeof shippersOf>> = {
  MIA: shippersOf('MIA'),
  NL: shippersOf('NL'),
};
const PACKAGE_COUNTS = [0, 1, 2, 3, 4, 5, 6];
const PACKAGE_COUNT_WEIGHTS = cumulativeWeights([8, 34, 22, 15, 10, 6, 5]);
const CARRIERS: readonly Carrier[] = ['UPS', 'FedEx', 'USPS', 'Amazon'];

function routesOf(region: Region) {
  const indices = ROUTES.flatMap((route, index) => (route.region === region ? [index] : []));
  return { indices, weights: cumulativeWeights(indices.map((index) => ROUTES[index]!.share)) };
}
const REGION_ROUTES: Record<Region, ReturnType<typeof routesOf>> = {
  MIA: routesOf('MIA'),
  NL: routesOf('NL'),
};

export function statusOf(record: SandboxRecord): string {
  if (record.hold === Hold.Cancelled) return CANCELLED;
  if (record.hold === Hold.OnHold) return ON_HOLD;
  if (record.stage < 0) return PENDING;
  const route = ROUTES[record.route]!;
  return record.stage === 0
    ? WAREHOUSE_STATUS[route.region]
    : LIFECYCLE[route.transport][record.stage - 1]!;
}

/** Delivered: at the end of its route, neither held nor cancelled. */
export const isDelivered = (record: SandboxRecord) =>
  record.hold === Hold.None && record.stage >= FINAL_STAGE;

/** Delivered and Cancelled receipts change no more. */
export const isSettled = (record: SandboxRecord) =>
  record.hold === Hold.Cancelled || isDelivered(record);

export function trackingNumber(random: Random, carrier: Carrier): string {
  switch (carrier) {
    case 'UPS':
      return `1Z${random.alphanumerics(6)}${random.digits(10)}`;
    case 'FedEx':
      return `${random.int(1, 9)}${random.digits(random.chance(0.6) ? 11 : 14)}`;
    case 'USPS':
      return `9400${random.digits(18)}`;
    case 'Amazon':
      return `TBA${random.digits(12)}`;
  }
}

export function carrierOf(tracking: string): Carrier {
  if (tracking.startsWith('1Z')) return 'UPS';
  if (tracking.startsWith('TBA')) return 'Amazon';
  if (tracking.length === 22) return 'USPS';
  return 'FedEx';
}

/** Consignee indices with cumulative weights: a few big customers and a long tail. */
export interface ConsigneePool {
  indices: number[];
  weights: number[];
}

export function consigneePool(count: number): ConsigneePool {
  const indices = Array.from({ length: count }, (_, index) => index);
  return { indices, weights: cumulativeWeights(indices.map((rank) => 1 / (rank + 1) ** 0.7)) };
}

/** What a new receipt ships (who, to whom, how, how much); its dates and status are set by the caller. */
export function describeRecord(
  random: Random,
  id: number,
  consignees: ConsigneePool,
  region?: Region,
): SandboxRecord {
  const shippers = region ? REGION_SHIPPERS[region] : ALL_SHIPPERS;
  const shipperIndex = random.pickWeighted(shippers.indices, shippers.weights);
  const shipper = SHIPPERS[shipperIndex]!;
  const routes = REGION_ROUTES[shipper.region];
  const route = random.pickWeighted(routes.indices, routes.weights);
  const packages = random.pickWeighted(PACKAGE_COUNTS, PACKAGE_COUNT_WEIGHTS);
  const pieces = packages === 0 ? random.int(1, 4) : packages + random.int(0, packages);
  const [lightest, heaviest] = GOODS[shipper.goods].poundsPerPiece;
  const weightCents = Math.max(
    packages,
    Math.round(pieces * random.between(lightest, heaviest) * 100),
  );
  const poundsPerCubicFoot = random.between(6, 14);
  const volumeMilli = Math.max(
    packages,
    Math.round((weightCents / 100 / poundsPerCubicFoot) * 1000),
  );
  return {
    id,
    receivedAt: 0,
    updatedAt: 0,
    shipper: shipperIndex,
    consignee: random.pickWeighted(consignees.indices, consignees.weights),
    route,
    mode: random.pick(MODES[ROUTES[route]!.transport]),
    destination: random.pick(DESTINATIONS),
    stage: 0,
    hold: Hold.None,
    packages,
    pieces,
    weightCents,
    volumeMilli,
  };
}

/** Splits `total` (at least `parts`) into `parts` positive whole numbers. */
function split(random: Random, total: number, parts: number): number[] {
  const shares = Array.from({ length: parts }, () => 0.25 + random.next());
  const sum = shares.reduce((a, b) => a + b, 0);
  const spare = total - parts;
  const result = shares.map((share) => 1 + Math.floor((spare * share) / sum));
  result[0]! += total - result.reduce((a, b) => a + b, 0);
  return result;
}

/** A receipt's packages, always the same for the same seed and id; they add up to the receipt's totals. */
export function commoditiesOf(seed: number, record: SandboxRecord): ProviderCommodity[] {
  if (record.packages === 0) return [];
  const random = new Random(mixSeed(seed, STREAM.packages, record.id));
  const shipper = SHIPPERS[record.shipper]!;
  const pieces = split(random, record.pieces, record.packages);
  const weights = split(random, record.weightCents, record.packages);
  const volumes = split(random, record.volumeMilli, record.packages);
  return pieces.map((count, index) => ({
    description: random.pick(GOODS[shipper.goods].descriptions),
    trackingNumber:
      shipper.carriers.length === 0 ? null : trackingNumber(random, random.pick(shipper.carriers)),
    pieces: count,
    totalWeightValue: weights[index]! / 100,
    totalVolumeValue: volumes[index]! / 1000,
  }));
}

/** A tracking number as a label prints it and the dock's scanner records it: in groups of four. */
const asPrinted = (trackingNumber: string) => trackingNumber.replace(/(.{4})(?=.)/g, '$1 ');

/** A pre-alerted package as the warehouse records it: the customer's shipper and contents, the number as printed. */
function prealertedCommodities(
  record: SandboxRecord & Required<Pick<SandboxRecord, 'prealerted'>>,
): ProviderCommodity[] {
  return [
    {
      description: record.prealerted.description,
      trackingNumber: asPrinted(record.prealerted.trackingNumber),
      pieces: record.pieces,
      totalWeightValue: record.weightCents / 100,
      totalVolumeValue: record.volumeMilli / 1000,
    },
  ];
}

export function receiptOf(
  seed: number,
  record: SandboxRecord,
  consignees: readonly ProviderConsignee[],
): ProviderReceipt {
  const consignee = consignees[record.consignee] ?? { id: 0, name: 'Unknown consignee' };
  const { prealerted } = record;
  return {
    id: record.id,
    number: `WR-${record.id}`,
    receivedDate: new Date(record.receivedAt).toISOString(),
    shipperName: prealerted ? prealerted.shipper : SHIPPERS[record.shipper]!.name,
    consigneeId: consignee.id,
    consigneeName: consignee.name,
    pieces: record.pieces,
    totalWeightValue: record.weightCents / 100,
    totalVolumeValue: record.volumeMilli / 1000,
    destination: record.destination,
    status: statusOf(record),
    modeOfTransportation: record.mode,
    origin: { name: ROUTES[record.route]!.origin },
    commodities: prealerted
      ? prealertedCommodities({ ...record, prealerted })
      : commoditiesOf(seed, record),
    updatedAt: new Date(record.updatedAt).toISOString(),
  };
}

/** Walks a receipt along its route's lifecycle up to `now`, then maybe puts it on hold or cancels it. */
function settle(random: Random, record: SandboxRecord, now: number): void {
  let changedAt = record.receivedAt;
  let stage = 0;
  for (const [fewest, most] of STEP_DAYS[ROUTES[record.route]!.transport]) {
    const next = changedAt + random.between(fewest, most) * DAY_MS;
    if (next > now) break;
    changedAt = next;
    stage++;
  }
  record.stage = stage;
  record.updatedAt = Math.floor(changedAt);
  const roll = random.next();
  if (roll < 0.015) {
    record.stage = 0;
    record.hold = Hold.Cancelled;
    record.updatedAt = Math.floor(Math.min(now, record.receivedAt + random.between(1, 5) * DAY_MS));
  } else if (stage < FINAL_STAGE && roll < 0.05) {
    record.hold = Hold.OnHold;
    record.updatedAt = Math.floor(Math.min(now, changedAt + random.between(2, 48) * HOUR_MS));
  } else if (stage === 0 && now - record.receivedAt < 2 * DAY_MS && roll < 0.35) {
    record.stage = -1;
  }
}

interface Showcase {
  route: number;
  stage: number;
  hold?: Hold;
  mode?: string;
  within: 'week' | 'month';
}

/** The first receipts show every status and route, received this week or this month. */
const SHOWCASE: readonly Showcase[] = [
  { route: 0, stage: 0, within: 'week' },
  { route: 3, stage: 0, within: 'week' },
  { route: 0, stage: 1, mode: '40 - Air', within: 'week' },
  { route: 0, stage: -1, within: 'week' },
  { route: 1, stage: 0, hold: Hold.OnHold, within: 'week' },
  { route: 2, stage: 1, mode: '11 - Vessel, Containerized', within: 'month' },
  { route: 4, stage: 1, within: 'month' },
  { route: 3, stage: 2, within: 'month' },
  { route: 1, stage: 2, within: 'month' },
  { route: 0, stage: 3, within: 'month' },
  { route: 4, stage: 4, within: 'month' },
  { route: 0, stage: 0, hold: Hold.Cancelled, within: 'month' },
];

/** Monday 00:00 of the current ISO week and the 1st of the month, in the server's time zone. */
function periodStarts(now: number): { week: number; month: number } {
  const date = new Date(now);
  const week = new Date(
    date.getFullYear(),
    date.getMonth(),
    date.getDate() - ((date.getDay() + 6) % 7),
  ).getTime();
  const month = new Date(date.getFullYear(), date.getMonth(), 1).getTime();
  return { week, month };
}

function arrivalScan(
  random: Random,
  id: number,
  arrivalId: number,
  tracking: string,
  scannedAt: number,
  region: Region,
  pieces: number,
  weightLbs: number,
): PackageScan {
  return {
    id,
    arrival_id: arrivalId,
    tracking_number: tracking,
    carrier: carrierOf(tracking),
    scanned_at: new Date(scannedAt).toISOString(),
    location: SCAN_LOCATIONS[region],
    pieces,
    weight_lbs: weightLbs,
    scanned_by: `dock-${random.int(1, 6)}`,
  };
}

export function generateSandbox(seed: number, count: number, now: number): SandboxData {
  const consigneeRandom = new Random(mixSeed(seed, STREAM.consignees));
  const consignees = consigneeRandom
    .shuffle(CONSIGNEE_NAMES)
    .map((name, index) => ({ id: FIRST_CONSIGNEE_ID + index, name }));
  const pool = consigneePool(consignees.length);

  const dates = new Random(mixSeed(seed, STREAM.dates));
  const starts = periodStarts(now);
  const planned = Array.from({ length: count }, (_, index) => {
    const showcase = SHOWCASE[index];
    const from = showcase ? starts[showcase.within] : now - SPREAD_DAYS * DAY_MS;
    return { receivedAt: Math.floor(dates.between(from, now)), showcase };
  }).sort((a, b) => a.receivedAt - b.receivedAt);

  const records = planned.map(({ receivedAt, showcase }, index) => {
    const id = FIRST_RECEIPT_ID + index;
    const random = new Random(mixSeed(seed, STREAM.receipt, id));
    const region = showcase ? ROUTES[showcase.route]!.region : undefined;
    const record = describeRecord(random, id, pool, region);
    record.receivedAt = receivedAt;
    if (showcase) {
      record.route = showcase.route;
      record.mode = showcase.mode ?? random.pick(MODES[ROUTES[showcase.route]!.transport]);
      record.stage = showcase.stage;
      record.hold = showcase.hold ?? Hold.None;
      record.updatedAt = Math.floor(random.between(receivedAt, now));
    } else {
      settle(random, record, now);
    }
    return record;
  });

  const scans = new Map<string, PackageScan[]>();
  let scanId = 9001;
  let arrivalId = 301;
  const scanRandom = new Random(mixSeed(seed, STREAM.scans));
  const scannedPackages: SandboxData['scannedPackages'] = [];
  for (const record of records) {
    if (record.packages === 0 || !scanRandom.chance(0.1)) continue;
    const tracked = commoditiesOf(seed, record).find(
      (commodity) => commodity.trackingNumber !== null,
    );
    if (!tracked?.trackingNumber) continue;
    const scannedAt = record.receivedAt - scanRandom.between(1, 48) * HOUR_MS;
    const region = ROUTES[record.route]!.region;
    scannedPackages.push({ trackingNumber: tracked.trackingNumber, receiptId: record.id });
    scans.set(tracked.trackingNumber.toUpperCase(), [
      arrivalScan(
        scanRandom,
        scanId++,
        arrivalId++,
        tracked.trackingNumber,
        scannedAt,
        region,
        tracked.pieces,
        tracked.totalWeightValue,
      ),
    ]);
  }

  const orphanRandom = new Random(mixSeed(seed, STREAM.orphans));
  const orphanTrackingNumbers: string[] = [];
  const orphanCount = Math.min(400, Math.max(10, Math.round(count / 40)));
  for (let i = 0; i < orphanCount; i++) {
    const tracking = trackingNumber(orphanRandom, orphanRandom.pick(CARRIERS));
    const region: Region = orphanRandom.chance(0.85) ? 'MIA' : 'NL';
    const scannedAt = now - orphanRandom.between(0.1, 10) * DAY_MS;
    const pieces = orphanRandom.int(1, 3);
    const weight = Math.round(orphanRandom.between(1, 60) * 100) / 100;
    const arrival = [
      arrivalScan(orphanRandom, scanId++, arrivalId, tracking, scannedAt, region, pieces, weight),
    ];
    // Some parcels are scanned twice: at the dock and when put away.
    if (orphanRandom.chance(0.3))
      arrival.push(
        arrivalScan(
          orphanRandom,
          scanId++,
          arrivalId,
          tracking,
          Math.min(now, scannedAt + orphanRandom.between(1, 6) * HOUR_MS),
          region,
          pieces,
          weight,
        ),
      );
    arrivalId++;
    scans.set(tracking.toUpperCase(), arrival);
    orphanTrackingNumbers.push(tracking);
  }

  return { consignees, records, scans, orphanTrackingNumbers, scannedPackages };
}
