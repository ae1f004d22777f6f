/**
 * The address classification webhook deliveries are refused by (src/server/network-address.ts): every
 * range a delivery must not reach, the IPv6 forms that carry an IPv4 address, and public addresses
 * next to each range's edge.
 */
import { describe, expect, it } from 'vitest';
import { addressKind, isIpLiteral, isLocalhostName } from '~/server/network-address';

describe('addressKind', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['10.0.0.1', 'private'],
    ['10.255.255.255', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.10', 'private'],
    ['100.64.0.1', 'shared'],
    ['100.127.255.255', 'shared'],
    ['169.254.0.1', 'link-local'],
    ['169.254.169.254', 'metadata'],
    ['168.63.129.16', 'metadata'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'reserved'],
    ['192.0.2.1', 'reserved'],
    ['198.18.0.1', 'reserved'],
  ])('when the IPv4 address is %s, then it is %s', (address, kind) => {
    expect(addressKind(address)).toBe(kind);
  });

  it.each([
    ['::1', 'loopback'],
    ['[::1]', 'loopback'],
    ['::', 'unspecified'],
    ['fc00::1', 'private'],
    ['fd12:3456:789a::1', 'private'],
    ['fd00:ec2::254', 'metadata'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['febf::1', 'link-local'],
    ['fec0::1', 'private'],
    ['ff02::1', 'multicast'],
    ['2001:db8::1', 'reserved'],
    ['::2', 'reserved'],
  ])('when the IPv6 address is %s, then it is %s', (address, kind) => {
    expect(addressKind(address)).toBe(kind);
  });

  it.each([
    ['::ffff:127.0.0.1', 'loopback'],
    ['[::ffff:127.0.0.1]', 'loopback'],
    // How a URL writes the same address.
    ['[::ffff:7f00:1]', 'loopback'],
    ['::ffff:10.1.2.3', 'private'],
    ['::ffff:169.254.169.254', 'metadata'],
    ['64:ff9b::a9fe:a9fe', 'metadata'],
    ['64:ff9b::192.168.0.1', 'private'],
    // IPv4-translated (::ffff:0:0:0/96) carries its IPv4 address too; local-use NAT64 may reach anything.
    ['::ffff:0:10.0.0.1', 'private'],
    ['::ffff:0:127.0.0.1', 'loopback'],
    ['64:ff9b:1::a00:1', 'reserved'],
    ['2002:7f00:1::1', 'loopback'],
    ['2002:0a00:0001::', 'private'],
  ])(
    'when the IPv6 address %s carries an IPv4 address, then it is judged by it: %s',
    (address, kind) => {
      expect(addressKind(address)).toBe(kind);
    },
  );

  it.each([
    '1.1.1.1',
    '8.8.8.8',
    '9.255.255.255',
    '11.0.0.0',
    '100.63.255.255',
    '100.128.0.0',
    '126.255.255.255',
    '128.0.0.1',
    '169.253.255.255',
    '169.255.0.0',
    '172.15.255.255',
    '172.32.0.0',
    '192.167.255.255',
    '192.169.0.0',
    '223.255.255.255',
    '2606:4700:4700::1111',
    '2a00:1450:4001::200e',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
    '2002:808:808::1',
    'fbff:ffff::1',
    'fe00::1',
  ])('when the address is %s, then it is public (null)', (address) => {
    expect(addressKind(address)).toBeNull();
  });

  it.each(['localhost', 'example.com', '', '1.2.3', '256.1.1.1', '::g'])(
    'when the text %j is no IP address, then it is null',
    (text) => {
      expect(addressKind(text)).toBeNull();
    },
  );
});

describe('isIpLiteral and isLocalhostName', () => {
  it('when a host is an address (IPv6 in brackets too), then it is a literal; a name is not', () => {
    expect(['127.0.0.1', '[::1]', '::1', '[::ffff:7f00:1]'].map(isIpLiteral)).toEqual([
      true,
      true,
      true,
      true,
    ]);
    expect(['localhost', 'hooks.example.com', '[localhost]'].map(isIpLiteral)).toEqual([
      false,
      false,
      false,
    ]);
  });

  it('when a name is localhost or under it, then it names the machine itself', () => {
    expect(['localhost', 'LOCALHOST', 'localhost.', 'api.localhost'].map(isLocalhostName)).toEqual([
      true,
      true,
      true,
      true,
    ]);
    expect(['localhost.example.com', 'mylocalhost', 'example.com'].map(isLocalhostName)).toEqual([
      false,
      false,
      false,
    ]);
  });
});
