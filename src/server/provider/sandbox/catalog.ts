/** The sandbox's vocabulary: who ships, who receives, what, how and along which route. */

export type Region = 'MIA' | 'NL';
export type Transport = 'air' | 'ocean';
export type Carrier = 'UPS' | 'FedEx' | 'USPS' | 'Amazon';
type Goods =
  'general' | 'hardware' | 'electronics' | 'auto' | 'food' | 'medical' | 'furniture' | 'machinery';

export interface Shipper {
  name: string;
  region: Region;
  goods: Goods;
  /** Carriers that deliver its parcels to the warehouse; none: it delivers freight itself (no tracking numbers). */
  carriers: readonly Carrier[];
  /** Relative share of receipts. */
  share: number;
}

export const SHIPPERS: readonly Shipper[] = [
  {
    name: 'Amazon.com Services LLC',
    region: 'MIA',
    goods: 'general',
    carriers: ['Amazon', 'Amazon', 'UPS', 'USPS'],
    share: 30,
  },
  {
    name: 'Walmart Inc.',
    region: 'MIA',
    goods: 'general',
    carriers: ['FedEx', 'UPS', 'USPS'],
    share: 12,
  },
  {
    name: 'The Home Depot',
    region: 'MIA',
    goods: 'hardware',
    carriers: ['UPS', 'FedEx'],
    share: 11,
  },
  {
    name: "Lowe's Home Centers LLC",
    region: 'MIA',
    goods: 'hardware',
    carriers: ['UPS', 'FedEx'],
    share: 5,
  },
  {
    name: 'Best Buy Co. Inc.',
    region: 'MIA',
    goods: 'electronics',
    carriers: ['UPS', 'FedEx'],
    share: 6,
  },
  {
    name: 'Target Corporation',
    region: 'MIA',
    goods: 'general',
    carriers: ['UPS', 'FedEx', 'USPS'],
    share: 5,
  },
  { name: 'Costco Wholesale', region: 'MIA', goods: 'food', carriers: ['UPS', 'FedEx'], share: 4 },
  { name: 'AutoZone Inc.', region: 'MIA', goods: 'auto', carriers: ['UPS', 'FedEx'], share: 4 },
  {
    name: 'B&H Photo Video',
    region: 'MIA',
    goods: 'electronics',
    carriers: ['UPS', 'FedEx'],
    share: 3,
  },
  {
    name: 'eBay Inc.',
    region: 'MIA',
    goods: 'general',
    carriers: ['USPS', 'UPS', 'FedEx'],
    share: 4,
  },
  {
    name: 'Shein Distribution Corp.',
    region: 'MIA',
    goods: 'general',
    carriers: ['USPS', 'UPS'],
    share: 4,
  },
  { name: 'Miami Auto Parts Export Inc.', region: 'MIA', goods: 'auto', carriers: [], share: 4 },
  {
    name: 'Doral Electronics Wholesale LLC',
    region: 'MIA',
    goods: 'electronics',
    carriers: [],
    share: 3,
  },
  {
    name: 'Caribbean Food Distributors Inc.',
    region: 'MIA',
    goods: 'food',
    carriers: [],
    share: 3,
  },
  { name: 'Hialeah Tire & Wheel Export', region: 'MIA', goods: 'auto', carriers: [], share: 2 },
  {
    name: 'Sunshine Medical Supply Corp.',
    region: 'MIA',
    goods: 'medical',
    carriers: ['FedEx', 'UPS'],
    share: 2,
  },
  {
    name: 'Brickell Office Furniture LLC',
    region: 'MIA',
    goods: 'furniture',
    carriers: [],
    share: 2,
  },
  {
    name: 'Medley Industrial Supply Inc.',
    region: 'MIA',
    goods: 'machinery',
    carriers: ['FedEx'],
    share: 2,
  },
  { name: 'Bol.com B.V.', region: 'NL', goods: 'general', carriers: ['UPS', 'FedEx'], share: 5 },
  {
    name: 'Coolblue B.V.',
    region: 'NL',
    goods: 'electronics',
    carriers: ['UPS', 'FedEx'],
    share: 3,
  },
  { name: 'Hollandse Kaashandel B.V.', region: 'NL', goods: 'food', carriers: [], share: 2 },
  {
    name: 'Rotterdam Machinery Export B.V.',
    region: 'NL',
    goods: 'machinery',
    carriers: [],
    share: 2,
  },
  {
    name: 'Westland Tuinbouw Export B.V.',
    region: 'NL',
    goods: 'hardware',
    carriers: ['UPS'],
    share: 2,
  },
  {
    name: 'Medisch Groothandel Utrecht B.V.',
    region: 'NL',
    goods: 'medical',
    carriers: ['FedEx', 'UPS'],
    share: 1,
  },
];

export const GOODS: Record<
  Goods,
  { descriptions: readonly string[]; poundsPerPiece: readonly [number, number] }
> = {
  general: {
    descriptions: [
      'Household goods',
      'Kitchen appliances',
      'Clothing and shoes',
      'Toys and games',
      'Books',
      'Bedding and towels',
      'Personal care products',
      'Vitamins and supplements',
      'Baby products',
      'Small electronics',
    ],
    poundsPerPiece: [1, 25],
  },
  hardware: {
    descriptions: [
      'Power tools',
      'Plumbing fittings',
      'Interior paint',
      'Electrical wire',
      'Ceiling fan',
      'Door hardware',
      'Garden hose and fittings',
      'Tile adhesive',
      'Water heater',
    ],
    poundsPerPiece: [4, 60],
  },
  electronics: {
    descriptions: [
      'Laptop computer',
      'Flat-screen TV',
      'Mobile phones',
      'Audio equipment',
      'Printer and ink',
      'Networking equipment',
      'Camera equipment',
      'Computer monitor',
    ],
    poundsPerPiece: [2, 45],
  },
  auto: {
    descriptions: [
      'Auto parts',
      'Brake pads',
      'Tires',
      'Car batteries',
      'Engine oil',
      'Spark plugs',
      'Shock absorbers',
      'Alternator',
    ],
    poundsPerPiece: [5, 80],
  },
  food: {
    descriptions: [
      'Canned goods',
      'Dry groceries',
      'Snacks',
      'Cheese',
      'Coffee',
      'Spices',
      'Beverages',
      'Baby formula',
    ],
    poundsPerPiece: [8, 50],
  },
  medical: {
    descriptions: [
      'Medical supplies',
      'First aid kits',
      'Blood pressure monitors',
      'Disposable gloves',
      'Wheelchair',
      'Hospital bed parts',
    ],
    poundsPerPiece: [2, 40],
  },
  furniture: {
    descriptions: [
      'Office chairs',
      'Office desk',
      'Filing cabinet',
      'Mattress',
      'Dining set',
      'Bookcase',
    ],
    poundsPerPiece: [20, 120],
  },
  machinery: {
    descriptions: [
      'Generator',
      'Water pump',
      'Air compressor',
      'Welding machine',
      'Machine spare parts',
      'Pressure washer',
    ],
    poundsPerPiece: [40, 400],
  },
};

/** About sixty consignees, every name unique: Surinamese and Dutch companies and people. */
export const CONSIGNEE_NAMES: readonly string[] = [
  'Paramaribo Trading N.V.',
  'Ramdin Auto Parts N.V.',
  'Commewijne Agro Supplies N.V.',
  'Nickerie Rijst Export N.V.',
  'Sranan Bouwmaterialen N.V.',
  'Kromodikoro Electronics',
  'Marowijne Hardware & Tools',
  'Tjon A Fat Supermarkt N.V.',
  'Wanica Medical Supplies N.V.',
  'Lelydorp Meubelhandel',
  'Saramacca Visserij N.V.',
  'Coronie Kokos Coöperatie',
  'Brokopondo Mining Services N.V.',
  'Van der Hek Handelmaatschappij B.V.',
  'Jagernath & Zonen N.V.',
  'Mahabier Textiel N.V.',
  'Zeelandia Koffie Import',
  'Waterkant Groothandel N.V.',
  'Suri-Tech Solutions N.V.',
  'Pinas Transport & Logistiek',
  'Kwatta Bakkerij N.V.',
  'Domburg Auto Service',
  'Moengo Bouw N.V.',
  'Apotheek Zorg & Welzijn N.V.',
  'Noord-Holland Export B.V.',
  'De Vries Installatietechniek B.V.',
  'Albina Handelshuis',
  'Latour Elektro N.V.',
  'Flora Tuinbouw N.V.',
  'Blauwgrond Schoenenhandel',
  'Wong Import Company N.V.',
  'Kasimin Motors N.V.',
  'Tamanredjo Agrarisch Bedrijf',
  'Eldorado Office Supplies N.V.',
  'Zorg en Hoop Medisch Centrum',
  'Anita Soekhoe',
  'Ricardo Vanenburg',
  'Priya Ramsaran',
  'Sandra Kartodikromo',
  'Henk de Vries',
  'Shanti Jagessar',
  'Marcel Tjin A Djie',
  'Gerda Zaalman',
  'Roy Sewdien',
  'Esther Kensmil',
  'Johan van Dijk',
  'Natasja Biharie',
  'Clifton Brunings',
  'Wendy Sitaldin',
  'Pieter Bakker',
  'Rachelle Amatredjo',
  'Ivan Fernandes',
  'Sharda Ganga',
  'Dennis Wijngaarde',
  'Mariska Jansen',
  'Kenneth Lie',
  'Ingrid Karg',
  'Stanley Chin',
  'Fatima Abdoelrahman',
  'Erwin Tjong',
];

export interface Route {
  origin: string;
  region: Region;
  transport: Transport;
  share: number;
}

/** Miami goods leave from Miami (air or ocean); Dutch goods from Schiphol by air or Rotterdam by sea. */
export const ROUTES: readonly Route[] = [
  { origin: 'Miami, FL', region: 'MIA', transport: 'air', share: 45 },
  { origin: 'Miami, FL', region: 'MIA', transport: 'ocean', share: 20 },
  { origin: 'Port of Miami', region: 'MIA', transport: 'ocean', share: 15 },
  { origin: 'Amsterdam Airport Schiphol', region: 'NL', transport: 'air', share: 55 },
  { origin: 'Rotterdam', region: 'NL', transport: 'ocean', share: 45 },
];

export const MODES: Record<Transport, readonly string[]> = {
  air: ['Air', '40 - Air', '40 - Air', '41 - Air Containerized'],
  ocean: [
    'Ocean',
    '11 - Vessel, Containerized',
    '11 - Vessel, Containerized',
    '10 - Vessel, Non-Containerized',
  ],
};

export const DESTINATIONS: readonly string[] = [
  'Paramaribo, Suriname',
  'Paramaribo, Suriname',
  'Paramaribo, Suriname',
  'Paramaribo, Suriname',
  'Nieuw Nickerie, Suriname',
  'Lelydorp, Suriname',
];

export const WAREHOUSE_STATUS: Record<Region, string> = {
  MIA: 'Received at MIA warehouse',
  NL: 'Received at NL warehouse',
};

/** The statuses after the origin warehouse, by transport; the last one is final. */
export const LIFECYCLE: Record<Transport, readonly string[]> = {
  air: ['In-Transit', 'Arrived', 'Received at SME warehouse', 'Delivered'],
  ocean: ['In-Transit', 'At destination', 'Received at SME warehouse', 'Delivered'],
};

/** Days each step takes, from the warehouse onwards (consolidation, the trip, unloading, pick-up). */
export const STEP_DAYS: Record<Transport, readonly (readonly [number, number])[]> = {
  air: [
    [1, 12],
    [1, 3],
    [0.5, 2],
    [1, 20],
  ],
  ocean: [
    [3, 21],
    [10, 24],
    [2, 7],
    [1, 20],
  ],
};

export const PENDING = 'Pending';
export const ON_HOLD = 'On-Hold';
export const CANCELLED = 'Cancelled';

export const SCAN_LOCATIONS: Record<Region, string> = {
  MIA: 'Miami (Doral) warehouse',
  NL: 'Netherlands (Schiphol) warehouse',
};
