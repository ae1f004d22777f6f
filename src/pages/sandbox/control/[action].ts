import type { APIRoute } from 'astro';
import { config } from '~/server/config';
import { revokeAccessTokens } from '~/server/provider/sandbox/authorization';
import { json, notFound } from '~/server/provider/sandbox/http';
import { sandboxStore, setSandboxDown } from '~/server/provider/sandbox/state';

/** Test and benchmark controls (SANDBOX_CONTROL=true only); docs/provider-api.md §3. */
const actions = new Map<string, () => unknown>([
  ['advance', () => sandboxStore().advance(Date.now())],
  ['outage', () => (setSandboxDown(true), { down: true })],
  ['recover', () => (setSandboxDown(false), { down: false })],
  ['revoke', () => (revokeAccessTokens(), { revoked: true })],
]);

export const POST: APIRoute = ({ params }) => {
  const action = config.sandboxControl ? actions.get(params.action ?? '') : undefined;
  return action ? json(action()) : notFound();
};

export const GET: APIRoute = ({ params }) => (config.sandboxControl && params.action === 'samples' ? json(sandboxStore().samples()) : notFound());
