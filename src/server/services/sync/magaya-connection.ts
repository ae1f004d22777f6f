/**
 * Token Management's "Magaya connection" card (PROVIDER=magaya): the API user, a test of it, and the
 * outcome of the last session, errors said in words. An admin's user and password are stored
 * encrypted (src/server/services/magaya-store.ts); users set by MAGAYA_USERNAME / MAGAYA_PASSWORD
 * are the server's to change.
 */
import { m } from '~/paraglide/messages.js';
import {
  magayaErrorText,
  type MagayaConnectionStatus,
  type MagayaCredentials,
  type MagayaTestResult,
} from '~/shared/magaya';
import type { Config } from '../../config';
import { AppError } from '../../errors';
import type { MagayaProviderClient } from '../../provider/magaya/client';
import { MagayaError } from '../../provider/magaya/soap';
import { recordAudit, type AuditActor, type AuditDeps } from '../audit';
import type { MagayaConnectionStore } from './magaya-store';
import { displayUrl } from './tokens';

export interface MagayaConnectionDeps {
  config: Pick<Config, 'magayaUrl'>;
  magaya: {
    client: Pick<MagayaProviderClient, 'testConnection'>;
    connection: MagayaConnectionStore;
  } | null;
}

function magayaOf(deps: MagayaConnectionDeps) {
  if (!deps.magaya) throw new AppError('NOT_FOUND', m.error_endpoint_not_found());
  return deps.magaya;
}

export async function readMagayaConnection(
  deps: MagayaConnectionDeps,
): Promise<MagayaConnectionStatus> {
  const state = await magayaOf(deps).connection.state();
  return {
    username: state.username,
    source: state.source,
    endpoint: displayUrl(deps.config.magayaUrl ?? ''),
    lastSessionAt: state.lastSessionAt?.toISOString() ?? null,
    lastSessionError: state.lastSessionError,
    lastSessionErrorText:
      state.lastSessionError === null ? null : magayaErrorText(state.lastSessionError),
  };
}

/**
 * An admin's API user, recorded in the audit trail (the name, never the password); refused (409)
 * when the server sets it.
 */
export async function saveMagayaCredentials(
  deps: MagayaConnectionDeps & AuditDeps,
  actor: AuditActor,
  credentials: MagayaCredentials,
): Promise<MagayaConnectionStatus> {
  const { connection } = magayaOf(deps);
  if (!connection.editable) throw new AppError('CONFLICT', m.magaya_connection_from_environment());
  await deps.db.sequelize.transaction(async (transaction) => {
    await connection.saveCredentials(credentials.username, credentials.password, transaction);
    await recordAudit(
      deps,
      actor,
      {
        action: 'provider.magaya-user-saved',
        target: 'Magaya',
        detail: { name: credentials.username },
      },
      transaction,
    );
  });
  return readMagayaConnection(deps);
}

/** A session started and ended with the API user: what Magaya said, in words. */
export async function testMagayaConnection(deps: MagayaConnectionDeps): Promise<MagayaTestResult> {
  try {
    await magayaOf(deps).client.testConnection();
    return { ok: true, error: null, errorText: null };
  } catch (error) {
    if (error instanceof MagayaError)
      return { ok: false, error: error.code, errorText: error.message };
    throw error;
  }
}
