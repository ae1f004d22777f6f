import type { APIRoute } from 'astro';
import { json, notFound, sandboxOf } from '~/server/provider/sandbox/http';
import type { Sandbox } from '~/server/provider/sandbox/state';

/** Test and benchmark controls (SANDBOX_CONTROL=true only); docs/provider-api.md §3. */
const ACTIONS: Readonly<Record<string, (sandbox: Sandbox) => unknown>> = {
  advance: (sandbox) => {
    const changes = sandbox.store().advance(sandbox.clock.now());
    sandbox.keep();
    return changes;
  },
  outage: (sandbox) => ((sandbox.down = true), { down: true }),
  recover: (sandbox) => ((sandbox.down = false), { down: false }),
  revoke: (sandbox) => (sandbox.authorization.revokeAccessTokens(), { revoked: true }),
  'withhold-prealerts': (sandbox) => ((sandbox.offersPrealerts = false), { prealerts: false }),
  'offer-prealerts': (sandbox) => ((sandbox.offersPrealerts = true), { prealerts: true }),
};

export const POST: APIRoute = (context) => {
  const sandbox = sandboxOf(context);
  const action =
    sandbox.config.sandboxControl && Object.hasOwn(ACTIONS, context.params.action ?? '')
      ? ACTIONS[context.params.action!]
      : undefined;
  return action ? json(action(sandbox)) : notFound();
};

export const GET: APIRoute = (context) => {
  const sandbox = sandboxOf(context);
  return sandbox.config.sandboxControl && context.params.action === 'samples'
    ? json(sandbox.store().samples())
    : notFound();
};
