/**
 * Which kind of network an IP address belongs to, so that webhook deliveries never reach the portal's
 * own neighbourhood (server-side request forgery): loopback, private, link-local, carrier-grade NAT,
 * unspecified, multicast, reserved and cloud metadata addresses. IPv6 forms that carry an IPv4 address
 * (IPv4-mapped `::ffff:a.b.c.d`, NAT64 `64:ff9b::/96`, 6to4 `2002::/16`) are judged by that address.
 * Pure functions over the literal text.
 */
import { isIPv4, isIPv6 } from 'node:net';
import type { AddressKind } from '~/shared/webhook-failures';

type Range4 = readonly [network: number, prefix: number, kind: AddressKind];
type Range6 = readonly [network: bigint, prefix: number, kind: AddressKind];

/** The first match wins: the metadata addresses come before the ranges that hold them. */
const IPV4_RANGES: readonly Range4[] = [
  [ipv4('169.254.169.254'), 32, 'metadata'],
  // Azure's platform endpoint (the instance metadata's wire server) is a public address.
  [ipv4('168.63.129.16'), 32, 'metadata'],
  [ipv4('0.0.0.0'), 8, 'unspecified'],
  [ipv4('10.0.0.0'), 8, 'private'],
  [ipv4('100.64.0.0'), 10, 'shared'],
  [ipv4('127.0.0.0'), 8, 'loopback'],
  [ipv4('169.254.0.0'), 16, 'link-local'],
  [ipv4('172.16.0.0'), 12, 'private'],
  [ipv4('192.0.0.0'), 24, 'reserved'],
  [ipv4('192.0.2.0'), 24, 'reserved'],
  [ipv4('192.168.0.0'), 16, 'private'],
  [ipv4('198.18.0.0'), 15, 'reserved'],
  [ipv4('198.51.100.0'), 24, 'reserved'],
  [ipv4('203.0.113.0'), 24, 'reserved'],
  [ipv4('224.0.0.0'), 4, 'multicast'],
  // Class E and the broadcast address.
  [ipv4('240.0.0.0'), 4, 'reserved'],
];

const IPV6_RANGES: readonly Range6[] = [
  [ipv6('fd00:ec2::254'), 128, 'metadata'],
  [ipv6('::'), 128, 'unspecified'],
  [ipv6('::1'), 128, 'loopback'],
  // IPv4-compatible addresses (deprecated) and the rest of ::/96.
  [ipv6('::'), 96, 'reserved'],
  [ipv6('100::'), 64, 'reserved'],
  // Local-use NAT64 (64:ff9b:1::/48): it may translate to any IPv4 address of the network, private ones too.
  [ipv6('64:ff9b:1::'), 48, 'reserved'],
  // Teredo and the documentation prefix.
  [ipv6('2001::'), 32, 'reserved'],
  [ipv6('2001:db8::'), 32, 'reserved'],
  [ipv6('fc00::'), 7, 'private'],
  [ipv6('fe80::'), 10, 'link-local'],
  // Site-local (deprecated): private in practice.
  [ipv6('fec0::'), 10, 'private'],
  [ipv6('ff00::'), 8, 'multicast'],
];

/** Prefixes whose addresses carry an IPv4 address in their last 32 bits. */
const IPV4_IN_LAST_32_BITS: readonly bigint[] = [
  ipv6('::ffff:0:0'),
  ipv6('::ffff:0:0:0'),
  ipv6('64:ff9b::'),
];
const MASK_96 = ((1n << 96n) - 1n) << 32n;

/** A dotted IPv4 address as its 32-bit number (the caller knows it is one). */
function ipv4(address: string): number {
  return address.split('.').reduce((value, part) => value * 256 + Number(part), 0);
}

/** An IPv6 address (with `::`, an IPv4 tail or a zone) as its 128-bit number (the caller knows it is one). */
function ipv6(address: string): bigint {
  let text = address.split('%')[0]!.toLowerCase();
  const tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (tail) {
    const value = ipv4(tail[1]!);
    text = `${text.slice(0, -tail[1]!.length)}${(value >>> 16).toString(16)}:${(value & 0xffff).toString(16)}`;
  }
  const [head, rest] = text.split('::') as [string, string | undefined];
  const groups = (part: string | undefined) => (part ? part.split(':') : []);
  const left = groups(head);
  const right = groups(rest);
  const all =
    rest === undefined
      ? left
      : [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  return all.reduce((value, group) => (value << 16n) | BigInt(parseInt(group, 16)), 0n);
}

function kindOfIpv4(value: number): AddressKind | null {
  for (const [network, prefix, kind] of IPV4_RANGES) {
    const size = 2 ** (32 - prefix);
    if (Math.floor(value / size) === Math.floor(network / size)) return kind;
  }
  return null;
}

function kindOfIpv6(value: bigint): AddressKind | null {
  const high96 = value & MASK_96;
  if (IPV4_IN_LAST_32_BITS.includes(high96)) return kindOfIpv4(Number(value & 0xffff_ffffn));
  // 6to4: the IPv4 address is bits 16 to 48.
  if (value >> 112n === 0x2002n) return kindOfIpv4(Number((value >> 80n) & 0xffff_ffffn));
  for (const [network, prefix, kind] of IPV6_RANGES) {
    const shift = BigInt(128 - prefix);
    if (value >> shift === network >> shift) return kind;
  }
  return null;
}

/**
 * The kind of network a literal address belongs to, or null for a public one (and for text that is no
 * IP address). IPv6 may come in brackets, as a URL writes it.
 */
export function addressKind(address: string): AddressKind | null {
  const literal = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  if (isIPv4(literal)) return kindOfIpv4(ipv4(literal));
  if (isIPv6(literal)) return kindOfIpv6(ipv6(literal));
  return null;
}

/** Whether the text is an IP address (IPv6 in brackets too), not a name to look up. */
export function isIpLiteral(host: string): boolean {
  const literal = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  return isIPv4(literal) || isIPv6(literal);
}

/** `localhost` and its subdomains name the machine itself, whatever a resolver says (the name is reserved for it). */
export function isLocalhostName(host: string): boolean {
  const name = host.toLowerCase().replace(/\.$/, '');
  return name === 'localhost' || name.endsWith('.localhost');
}
