/**
 * The relying party passkeys are made for: the host of PUBLIC_URL. WebAuthn takes a domain name as a
 * relying party ID, never an IP address: a portal reached by its IP offers no passkeys, and says why.
 */
import { isIP } from 'node:net';

export interface RelyingParty {
  /** The host of PUBLIC_URL, without its port. */
  id: string;
  /** The origin the browser reports in each ceremony. */
  origin: string;
  /** Shown by the browser as the site the passkey is for. */
  name: string;
}

/** The relying party of a portal at `publicUrl`, or null when its host is an IP address. */
export function relyingPartyOf(publicUrl: URL, productName: string): RelyingParty | null {
  // An IPv6 host comes in brackets.
  const host = publicUrl.hostname.replace(/^\[(.*)\]$/, '$1');
  if (isIP(host) !== 0) return null;
  return { id: host, origin: publicUrl.origin, name: productName };
}
