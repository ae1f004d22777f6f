import type { PasskeyView } from '~/shared/passkeys';
import type { Passkey } from '../../../db/models';

export const toPasskeyView = (passkey: Passkey): PasskeyView => ({
  id: passkey.id,
  name: passkey.name,
  deviceType: passkey.deviceType,
  backedUp: passkey.backedUp,
  createdAt: passkey.createdAt.toISOString(),
  lastUsedAt: passkey.lastUsedAt?.toISOString() ?? null,
});
