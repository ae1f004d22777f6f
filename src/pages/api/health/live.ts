import { ok, handle } from '~/server/http/respond';

// Liveness: answering at all is the check. It waits for nothing, start-up included.
export const GET = handle(async () => ok({ status: 'ok', checks: { process: { status: 'ok', uptimeSeconds: Math.round(process.uptime()) } } }));
