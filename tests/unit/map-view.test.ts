import { describe, expect, it } from 'vitest';
import { MAP_LOCATIONS, receiptMapView, type MapViewInput } from '~/shared/map-view';

const {
  miamiWarehouse,
  miamiAirport,
  portOfMiami,
  surinameAirport,
  surinameWarehouse,
  portOfParamaribo,
  netherlandsWarehouse,
  amsterdamAirport,
  rotterdamPort,
} = MAP_LOCATIONS;

const view = (status: string, modeOfTransportation = 'Ocean', origin = 'Miami, FL') =>
  receiptMapView({ status, modeOfTransportation, origin: { name: origin } });

describe('MAP_LOCATIONS', () => {
  it('when the fixed locations are listed, then there are nine, each with a name and real coordinates', () => {
    const locations = Object.values(MAP_LOCATIONS);
    expect(locations).toHaveLength(9);
    expect(new Set(locations.map((location) => location.name)).size).toBe(9);
    for (const { lat, lng } of locations) {
      expect(Math.abs(lat)).toBeLessThanOrEqual(90);
      expect(Math.abs(lng)).toBeLessThanOrEqual(180);
    }
  });

  it.each([
    [
      'Miami places',
      [miamiWarehouse, miamiAirport, portOfMiami],
      { lat: [25.7, 25.9], lng: [-80.4, -80.1] },
    ],
    [
      'Suriname places',
      [surinameAirport, surinameWarehouse, portOfParamaribo],
      { lat: [5.4, 5.9], lng: [-55.3, -55.1] },
    ],
    [
      'Netherlands places',
      [netherlandsWarehouse, amsterdamAirport, rotterdamPort],
      { lat: [51.8, 52.4], lng: [3.9, 4.9] },
    ],
  ])('when looking at the %s, then they lie in that area', (_name, locations, area) => {
    for (const { lat, lng } of locations) {
      expect(lat).toBeGreaterThan(area.lat[0]!);
      expect(lat).toBeLessThan(area.lat[1]!);
      expect(lng).toBeGreaterThan(area.lng[0]!);
      expect(lng).toBeLessThan(area.lng[1]!);
    }
  });
});

describe('receiptMapView: warehouses', () => {
  it.each([
    'Received at MIA Warehouse',
    'received at mia warehouse',
    'RECEIVED AT MIA WAREHOUSE',
    '  Received at  MIA\twarehouse ',
  ])(
    "when the status is '%s', then it is the Miami warehouse at zoom 15 without a popup",
    (status) => {
      expect(view(status, '40 - Air')).toEqual({
        kind: 'place',
        location: miamiWarehouse,
        zoom: 15,
      });
    },
  );

  it.each(['Received at NL Warehouse', 'received at nl warehouse'])(
    "when the status is '%s', then it is the Netherlands warehouse at zoom 15",
    (status) => {
      expect(view(status)).toEqual({ kind: 'place', location: netherlandsWarehouse, zoom: 15 });
    },
  );

  it.each([
    'Received at SME Warehouse',
    'At Destination',
    'Destination',
    'Arrived at destination',
    'Delivered',
    'delivered to consignee',
    'Arrived',
    'ARRIVED PARAMARIBO',
  ])("when the status is '%s', then it is the Suriname warehouse at zoom 15", (status) => {
    expect(view(status)).toEqual({ kind: 'place', location: surinameWarehouse, zoom: 15 });
  });
});

describe('receiptMapView: in transit by air', () => {
  const airRoute = (from: typeof miamiAirport | typeof amsterdamAirport) => ({
    kind: 'route',
    from,
    to: surinameAirport,
    zoom: 3,
    vehicle: 'plane',
    durationMs: 8000,
  });

  it.each([
    ['In Transit', 'Air'],
    ['In-Transit', 'AIR'],
    ['intransit', 'air freight'],
    ['IN TRANSIT', '40 - Air'],
    ['In-Transit', '41 - Air Containerized'],
    ['In transit to Suriname', '40'],
    ['in-transit', 'Code 140'],
  ])(
    "when the status is '%s' and the mode '%s', then a plane flies from Miami airport to the Suriname airport in 8 s at zoom 3",
    (status, mode) => {
      expect(view(status, mode)).toEqual(airRoute(miamiAirport));
    },
  );

  it.each([
    'Amsterdam Airport Schiphol',
    'AMSTERDAM AIRPORT SCHIPHOL (AMS)',
    'NL - amsterdam airport schiphol',
  ])("when the origin is '%s', then the plane leaves from Amsterdam airport", (origin) => {
    expect(view('In-Transit', 'Air', origin)).toEqual(airRoute(amsterdamAirport));
  });

  it.each(['Amsterdam', 'Schiphol', 'Amsterdam Schiphol Airport', 'Rotterdam'])(
    "when the origin is '%s' (not the full airport name), then the plane leaves from Miami airport",
    (origin) => {
      expect(view('In-Transit', 'Air', origin)).toEqual(airRoute(miamiAirport));
    },
  );
});

describe('receiptMapView: in transit by ocean', () => {
  const oceanRoute = (from: typeof portOfMiami | typeof rotterdamPort) => ({
    kind: 'route',
    from,
    to: portOfParamaribo,
    zoom: 3,
    vehicle: 'ship',
    durationMs: 12000,
  });

  it.each(['Ocean', '10 - Vessel, Non-Containerized', '11 - Vessel Containerized', 'Truck', ''])(
    "when in transit with the mode '%s', then a ship sails from the Port of Miami in 12 s at zoom 3",
    (mode) => {
      expect(view('In Transit', mode)).toEqual(oceanRoute(portOfMiami));
    },
  );

  it.each(['Rotterdam', 'Port of ROTTERDAM', 'rotterdam, nl'])(
    "when the origin is '%s', then the ship sails from the Rotterdam port",
    (origin) => {
      expect(view('In-Transit', 'Ocean', origin)).toEqual(oceanRoute(rotterdamPort));
    },
  );

  it('when the origin is Amsterdam Airport Schiphol but the mode is ocean, then the ship sails from the Port of Miami', () => {
    expect(view('In-Transit', 'Ocean', 'Amsterdam Airport Schiphol')).toEqual(
      oceanRoute(portOfMiami),
    );
  });
});

describe('receiptMapView: rule order', () => {
  it('when the status names the MIA warehouse and a transit, then the MIA warehouse wins', () => {
    expect(view('Received at MIA Warehouse, in transit', 'Air')).toMatchObject({
      kind: 'place',
      location: miamiWarehouse,
    });
  });

  it("when an in-transit status also says 'destination', then it is still a route", () => {
    expect(view('In transit to destination', 'Air')).toMatchObject({
      kind: 'route',
      vehicle: 'plane',
    });
  });
});

describe('receiptMapView: any other status', () => {
  it.each([
    ['On-Hold', '40 - Air', 'Air freight'],
    ['Cancelled', 'Ocean', 'Sea freight'],
    ['Pending', '', ''],
    ['Delivered at MIA', 'Air', 'Air freight'],
    ['Arrived Miami', '10 - Vessel, Non-Containerized', 'Sea freight, loose'],
    ['Received at warehouse', 'Ocean', 'Sea freight'],
    ['Transit', 'Hovercraft', 'Hovercraft'],
  ])(
    "when the status is '%s', then it is the Miami warehouse at zoom 15 with a popup of status and the transport's plain name",
    (status, mode, transport) => {
      expect(view(status, mode)).toEqual({
        kind: 'place',
        location: miamiWarehouse,
        zoom: 15,
        popup: { status, transport },
      });
    },
  );

  it('when status, mode and origin are all missing, then it is the Miami warehouse with an empty popup', () => {
    expect(receiptMapView({})).toEqual({
      kind: 'place',
      location: miamiWarehouse,
      zoom: 15,
      popup: { status: '', transport: '' },
    });
  });

  it('when values are null, then they count as empty', () => {
    const input: MapViewInput = { status: null, modeOfTransportation: null, origin: null };
    expect(receiptMapView(input)).toEqual({
      kind: 'place',
      location: miamiWarehouse,
      zoom: 15,
      popup: { status: '', transport: '' },
    });
    expect(
      receiptMapView({ status: 'In Transit', modeOfTransportation: null, origin: { name: null } }),
    ).toMatchObject({ from: portOfMiami, vehicle: 'ship' });
  });
});
