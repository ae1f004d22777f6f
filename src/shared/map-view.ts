/**
 * Where the tracking map ('Tracking Details' modal) shows a receipt: one pure
 * rule set from status, mode of transportation and origin to a place or a route.
 */
import { m } from '~/paraglide/messages.js';
import {
  ANIMATION_AIR_MS,
  ANIMATION_OCEAN_MS,
  MAP_ZOOM_ROUTE,
  MAP_ZOOM_WAREHOUSE,
} from './constants';
import type { Receipt } from './receipts';
import { transportLabel } from './format';

export interface MapLocation {
  name: string;
  lat: number;
  lng: number;
}

/**
 * The nine fixed map locations; the warehouses are those of src/shared/locations.ts.
 * Airports go by their own names; warehouses and ports are named in the reader's language.
 */
export const MAP_LOCATIONS = {
  miamiWarehouse: {
    get name() {
      return m.map_miami_warehouse();
    },
    lat: 25.7953,
    lng: -80.331,
  },
  miamiAirport: { name: 'Miami International Airport (MIA)', lat: 25.7959, lng: -80.287 },
  portOfMiami: {
    get name() {
      return m.map_port_of_miami();
    },
    lat: 25.7781,
    lng: -80.1794,
  },
  surinameAirport: {
    name: 'Johan Adolf Pengel International Airport (PBM)',
    lat: 5.4528,
    lng: -55.1878,
  },
  surinameWarehouse: {
    get name() {
      return m.map_suriname_warehouse();
    },
    lat: 5.852,
    lng: -55.2038,
  },
  portOfParamaribo: {
    get name() {
      return m.map_port_of_paramaribo();
    },
    lat: 5.818,
    lng: -55.154,
  },
  netherlandsWarehouse: {
    get name() {
      return m.map_netherlands_warehouse();
    },
    lat: 51.8697,
    lng: 4.5958,
  },
  amsterdamAirport: { name: 'Amsterdam Airport Schiphol (AMS)', lat: 52.3105, lng: 4.7683 },
  rotterdamPort: {
    get name() {
      return m.map_port_of_rotterdam();
    },
    lat: 51.95,
    lng: 4.14,
  },
} as const satisfies Record<string, MapLocation>;

export interface PlaceView {
  kind: 'place';
  location: MapLocation;
  zoom: typeof MAP_ZOOM_WAREHOUSE;
  /** Only for a status the rules do not place: what the receipt says, shown at the Miami warehouse. */
  popup?: { status: string; transport: string };
}

export interface RouteView {
  kind: 'route';
  from: MapLocation;
  to: MapLocation;
  zoom: typeof MAP_ZOOM_ROUTE;
  vehicle: 'plane' | 'ship';
  durationMs: typeof ANIMATION_AIR_MS | typeof ANIMATION_OCEAN_MS;
}

export type MapView = PlaceView | RouteView;

/** The fields the rules read; provider data may lack any of them. */
export type MapViewInput = {
  [Key in 'status' | 'modeOfTransportation']?: Receipt[Key] | null;
} & { origin?: { name?: string | null } | null };

const IN_TRANSIT = ['in transit', 'in-transit', 'intransit'];
const AT_DESTINATION = ['received at sme warehouse', 'destination'];

/** Lower case with runs of white space as one space, so 'Received at  MIA Warehouse' still matches. */
const normalize = (text: string | null | undefined) =>
  (text ?? '').toLowerCase().replace(/\s+/g, ' ').trim();
const containsAny = (text: string, parts: string[]) => parts.some((part) => text.includes(part));

const place = (location: MapLocation, popup?: PlaceView['popup']): PlaceView => ({
  kind: 'place',
  location,
  zoom: MAP_ZOOM_WAREHOUSE,
  ...(popup && { popup }),
});

export function receiptMapView(receipt: MapViewInput): MapView {
  const status = normalize(receipt.status);
  const mode = normalize(receipt.modeOfTransportation);
  const origin = normalize(receipt.origin?.name);

  if (status.includes('received at mia warehouse')) return place(MAP_LOCATIONS.miamiWarehouse);
  if (status.includes('received at nl warehouse')) return place(MAP_LOCATIONS.netherlandsWarehouse);
  if (containsAny(status, IN_TRANSIT)) {
    if (containsAny(mode, ['air', '40'])) {
      const from = origin.includes('amsterdam airport schiphol')
        ? MAP_LOCATIONS.amsterdamAirport
        : MAP_LOCATIONS.miamiAirport;
      return {
        kind: 'route',
        from,
        to: MAP_LOCATIONS.surinameAirport,
        zoom: MAP_ZOOM_ROUTE,
        vehicle: 'plane',
        durationMs: ANIMATION_AIR_MS,
      };
    }
    const from = origin.includes('rotterdam')
      ? MAP_LOCATIONS.rotterdamPort
      : MAP_LOCATIONS.portOfMiami;
    return {
      kind: 'route',
      from,
      to: MAP_LOCATIONS.portOfParamaribo,
      zoom: MAP_ZOOM_ROUTE,
      vehicle: 'ship',
      durationMs: ANIMATION_OCEAN_MS,
    };
  }
  if (
    containsAny(status, AT_DESTINATION) ||
    (containsAny(status, ['delivered', 'arrived']) && !status.includes('mia'))
  ) {
    return place(MAP_LOCATIONS.surinameWarehouse);
  }
  return place(MAP_LOCATIONS.miamiWarehouse, {
    status: receipt.status ?? '',
    transport: transportLabel(receipt.modeOfTransportation ?? ''),
  });
}
