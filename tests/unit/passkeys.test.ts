/** Passkeys' pure rules: the relying party of a PUBLIC_URL (never an IP address), and a new passkey's default name. */
import { describe, expect, it } from 'vitest';
import { relyingPartyOf } from '~/server/services/accounts/passkeys/relying-party';
import { passkeyKind } from '~/shared/passkeys';

describe('relyingPartyOf', () => {
  it('when PUBLIC_URL names a host, then the relying party ID is that host without its port, and the origin is the whole origin', () => {
    expect(relyingPartyOf(new URL('https://portal.example.com/'), 'Portal')).toEqual({
      id: 'portal.example.com',
      origin: 'https://portal.example.com',
      name: 'Portal',
    });
    expect(relyingPartyOf(new URL('http://localhost:4321'), 'Portal')).toEqual({
      id: 'localhost',
      origin: 'http://localhost:4321',
      name: 'Portal',
    });
  });

  it('when PUBLIC_URL is an IPv4 or IPv6 address, then there is none', () => {
    expect(relyingPartyOf(new URL('http://127.0.0.1:4321'), 'Portal')).toBeNull();
    expect(relyingPartyOf(new URL('http://192.168.1.20'), 'Portal')).toBeNull();
    expect(relyingPartyOf(new URL('http://[::1]:4321'), 'Portal')).toBeNull();
  });
});

describe('passkeyKind', () => {
  it('when the browser reports a phone, a synced passkey, a security key or this device, then that is its kind', () => {
    expect(passkeyKind('multiDevice', ['hybrid', 'internal'])).toBe('phone');
    expect(passkeyKind('multiDevice', ['internal'])).toBe('synced');
    expect(passkeyKind('singleDevice', ['usb', 'nfc'])).toBe('security-key');
    expect(passkeyKind('singleDevice', ['internal'])).toBe('device');
    expect(passkeyKind('singleDevice', [])).toBe('device');
  });
});
