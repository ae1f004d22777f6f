/** The actor of an audit entry, as this request shows them: the signed-in user and the client's address. */
import type { APIContext } from 'astro';
import type { AuditActor } from '../services/audit';

export function auditActor(context: Pick<APIContext, 'locals'>): AuditActor {
  const { user, clientAddress } = context.locals;
  return { id: user?.id ?? null, username: user?.username ?? '', clientAddress };
}
