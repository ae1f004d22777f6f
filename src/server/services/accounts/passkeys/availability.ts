/** Whether this portal offers passkeys, and the relying party they are for. */
import { m } from '~/paraglide/messages.js';
import type { PasskeyAvailability } from '~/shared/passkeys';
import type { Config } from '../../../config';
import { AppError } from '../../../errors';
import { relyingPartyOf, type RelyingParty } from './relying-party';

export type RelyingPartyConfig = Pick<Config, 'publicUrl' | 'productName'>;

export function passkeyAvailability(config: RelyingPartyConfig): PasskeyAvailability {
  return relyingPartyOf(config.publicUrl, config.productName)
    ? { available: true }
    : { available: false, reason: 'ip-host' };
}

/** The relying party, or a 404 that says why passkeys are off. */
export function requireRelyingParty(config: RelyingPartyConfig): RelyingParty {
  const party = relyingPartyOf(config.publicUrl, config.productName);
  if (!party) throw new AppError('NOT_FOUND', m.passkey_off_ip_host());
  return party;
}
