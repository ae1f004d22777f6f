/**
 * The sandbox warehouse's photo of a package on arrival: a parcel with its shipping label on the dock
 * floor, drawn as SVG and made a camera's JPEG by sharp (librsvg): 1600 × 1200, with sensor grain, so
 * that it weighs what a phone's photo does and the portal's previews have work to do. Everything in it
 * follows from the seed, the receipt and the package, so the same package always gives the same bytes.
 */
import type { ProviderCommodity, ProviderReceipt } from '../contract';
import type { Region } from './catalog';
import { carrierOf } from './generator';
import { Random } from './random';

export const PHOTO_SIZE = { width: 1600, height: 1200 } as const;

/** The labels' fonts: fontconfig finds one of them on most systems, or its own sans-serif. */
const SANS = "'DejaVu Sans', 'Liberation Sans', Arial, sans-serif";
const MONO = "'DejaVu Sans Mono', 'Liberation Mono', 'Courier New', monospace";

const SERVICES: Readonly<Record<string, string>> = {
  UPS: 'UPS GROUND',
  FedEx: 'FEDEX HOME DELIVERY',
  USPS: 'USPS PRIORITY MAIL',
  Amazon: 'AMAZON LOGISTICS',
};

const WAREHOUSES: Readonly<Record<Region, { address: string; camera: string }>> = {
  MIA: { address: '8400 NW 25TH ST, DORAL FL 33122', camera: 'MIA' },
  NL: { address: 'PELIKAANWEG 12, 1118 DT SCHIPHOL', camera: 'AMS' },
};

/** Cardboard, from fresh kraft to a box that travelled. */
const CARDBOARD = ['#c9995f', '#b98a52', '#d4a96e', '#a97c45', '#c4a070'] as const;

export interface PackagePhoto {
  receipt: ProviderReceipt;
  commodity: ProviderCommodity;
  /** 0-based, of `count`. */
  index: number;
  count: number;
  region: Region;
  takenAt: Date;
}

const escapeXml = (text: string) =>
  text.replace(/[<>&"']/g, (character) => `&#${character.charCodeAt(0)};`);

/** Capitals of a sans-serif take about this much of the font size each, in bold a little more. */
const CHARACTER_WIDTH = { regular: 0.62, bold: 0.72 } as const;

/** A line of the label in at most `width` pixels: a long one is set smaller, never cut. */
function labelLine(
  text: string,
  y: number,
  width: number,
  size: number,
  weight: keyof typeof CHARACTER_WIDTH = 'regular',
): string {
  const fitted = Math.min(size, Math.floor(width / (text.length * CHARACTER_WIDTH[weight])));
  const fontWeight = weight === 'bold' ? 'bold' : 'normal';
  return (
    `<text x="24" y="${y}" font-family="${SANS}" font-size="${fitted}" font-weight="${fontWeight}">` +
    `${escapeXml(text)}</text>`
  );
}

/** Bars from the text's characters, as a scanner would see a Code 128: widths vary, the ends are fixed. */
function barcode(text: string): { bars: string; width: number } {
  let x = 0;
  const bars: string[] = [];
  const bar = (width: number) => {
    bars.push(`<rect x="${x}" width="${width}" height="100"/>`);
    x += width;
  };
  bar(4);
  x += 2;
  bar(2);
  x += 4;
  for (const character of text) {
    const code = character.charCodeAt(0);
    for (let bit = 0; bit < 3; bit++) {
      bar(code & (1 << bit) ? 6 : 3);
      x += code & (8 << bit) ? 5 : 2;
    }
  }
  bar(4);
  x += 2;
  bar(2);
  return { bars: bars.join(''), width: x };
}

/** The SVG of the package's photo; `random` decides how the box lies and how the light falls. */
export function packagePhotoSvg(photo: PackagePhoto, random: Random): string {
  const { receipt, commodity, index, count, region, takenAt } = photo;
  const { width, height } = PHOTO_SIZE;
  const tracking = commodity.trackingNumber;
  const service = tracking ? SERVICES[carrierOf(tracking)]! : 'WAREHOUSE RECEIPT';
  const code = tracking ?? `${receipt.number}-${index + 1}`;
  const code128 = barcode(code);
  const labelWidth = 640;
  const barScale = Math.min(1, (labelWidth - 48) / code128.width);
  const box = {
    angle: random.between(-9, 9),
    x: random.between(-60, 60),
    y: random.between(-40, 40),
    colour: random.pick(CARDBOARD),
    labelAngle: random.between(-4, 4),
    tape: random.between(0.35, 0.6),
  };
  const floor = random.pick(['#8d8a84', '#7d7a75', '#948f86', '#6f6d69']);
  const light = { x: random.between(30, 70), y: random.between(25, 60) };
  const tapeShift = box.tape * 40;
  const shotAt = takenAt.toISOString().slice(0, 19).replace('T', ' ');
  const stamp = `${WAREHOUSES[region].camera} DOCK-${random.int(1, 6)}  ${shotAt}`;
  const weight = `${commodity.totalWeightValue.toFixed(2)} LBS`;
  const lines = [
    `SHIP TO: ${receipt.consigneeName.toUpperCase()}`,
    `c/o SANDBOX FREIGHT · SUITE ${receipt.consigneeId}`,
    WAREHOUSES[region].address,
  ];
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">
<defs>
<linearGradient id="floor" x1="0" y1="0" x2="0.3" y2="1">
<stop offset="0" stop-color="${floor}"/><stop offset="1" stop-color="#4f4d49"/>
</linearGradient>
<radialGradient id="light" cx="${light.x}%" cy="${light.y}%" r="80%">
<stop offset="0" stop-color="#fff" stop-opacity="0.22"/>
<stop offset="0.55" stop-color="#fff" stop-opacity="0"/>
<stop offset="1" stop-color="#000" stop-opacity="0.5"/>
</radialGradient>
</defs>
<rect width="${width}" height="${height}" fill="url(#floor)"/>
<g transform="translate(${box.x.toFixed(1)} ${box.y.toFixed(1)}) rotate(${box.angle.toFixed(2)} 800 620)">
<polygon points="270,1060 1380,1020 1395,1080 255,1120" fill="#000" opacity="0.35"/>
<polygon points="300,250 1320,215 1370,990 260,1030" fill="${box.colour}"/>
<polygon points="260,1030 1370,990 1380,1050 250,1090" fill="#000" opacity="0.3"/>
<polygon points="${760 + tapeShift},232 ${880 + tapeShift},228 ${905 + tapeShift},1002 ${785 + tapeShift},1006"
 fill="#e6d9b8" opacity="0.65"/>
<g transform="translate(430 330) rotate(${box.labelAngle.toFixed(2)})">
<rect width="${labelWidth}" height="520" fill="#f5f4ef"/>
${labelLine(service, 70, labelWidth - 48, 50, 'bold')}
<rect x="24" y="90" width="${labelWidth - 48}" height="4" fill="#111"/>
${lines.map((line, row) => labelLine(line, 140 + row * 36, labelWidth - 48, 25)).join('\n')}
<g transform="translate(24 245) scale(${barScale.toFixed(4)} 1)" fill="#111">${code128.bars}</g>
<text x="24" y="392" font-family="${MONO}" font-size="28">${escapeXml(code)}</text>
${labelLine(`${receipt.number}  PKG ${index + 1}/${count}  ${weight}`, 442, labelWidth - 48, 28, 'bold')}
${labelLine(commodity.description, 490, labelWidth - 48, 22)}
</g>
</g>
<rect width="${width}" height="${height}" fill="url(#light)"/>
<text x="40" y="1160" font-family="${MONO}" font-size="30" fill="#ffd400">${escapeXml(stamp)}</text>
</svg>`;
}

/** A camera's grain: one grey channel around the middle, from the photo's own random numbers. */
function sensorGrain(random: Random): Buffer {
  const { width, height } = PHOTO_SIZE;
  const grain = Buffer.allocUnsafe(width * height);
  for (let pixel = 0; pixel < grain.length; pixel++)
    grain[pixel] = 108 + Math.floor(random.next() * 41);
  return grain;
}

/** EXIF's "YYYY:MM:DD HH:MM:SS". */
const exifTime = (at: Date) => at.toISOString().slice(0, 19).replace('T', ' ').replaceAll('-', ':');

/** The photo as the dock camera saves it: a JPEG with the camera's EXIF (which the portal's previews leave out). */
export async function renderPackagePhoto(photo: PackagePhoto, random: Random): Promise<Buffer> {
  const { width, height } = PHOTO_SIZE;
  const svg = packagePhotoSvg(photo, random);
  // Loaded by the first photo made, not by every start of the server.
  const { default: sharp } = await import('sharp');
  return sharp(Buffer.from(svg))
    .composite([
      { input: sensorGrain(random), raw: { width, height, channels: 1 }, blend: 'overlay' },
    ])
    .flatten({ background: '#000' })
    .withExif({
      IFD0: { Make: 'Sandbox Logistics', Model: 'Dock camera', DateTime: exifTime(photo.takenAt) },
    })
    .jpeg({ quality: 88 })
    .toBuffer();
}
