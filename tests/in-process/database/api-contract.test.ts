/**
 * The API description cannot lie: real answers of real endpoints, on either database, parse with the
 * very schema their route file documents (the one GET /api/openapi.json is generated from) and hold
 * nothing it leaves out, and each status they come with is one the document lists for the operation.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type * as z from 'zod/mini';
import type { EndpointDescription, HttpMethod } from '~/server/http/api-description';
import { errorEnvelopeSchema } from '~/shared/envelope';
import { ApiClient, type ApiResponse } from '../../support/api-client';
import {
  allReceipts,
  createUser,
  signIn,
  signedInAdmin,
  waitForMirror,
} from '../../support/api-steps';
import { startInProcessPortal, type InProcessPortal } from '../../support/in-process';

const DEMO_PASSWORD = 'demo-password-1';
const ROUTE_FILES = import.meta.glob<{ openapi: EndpointDescription }>('/src/pages/api/**/*.ts', {
  eager: true,
});

let portal: InProcessPortal;
let document: Record<string, any>;
let admin: ApiClient;
let demo: ApiClient;
let viewer: ApiClient;
let ownReceiptId: number;
let othersReceiptId: number;

/** The route file's description of the method: `receipts/[id]` → /src/pages/api/receipts/[id].ts. */
function describedIn(route: string, method: HttpMethod) {
  const file =
    ROUTE_FILES[`/src/pages/api/${route}.ts`] ?? ROUTE_FILES[`/src/pages/api/${route}/index.ts`];
  const description = file?.openapi[method];
  if (!description) throw new Error(`${method} ${route} has no description`);
  return {
    description,
    path: `/api/${route}`.replace(/\/index$/, '').replace(/\[(\w+)\]/g, '{$1}'),
  };
}

/** Parses with the schema and finds the same value: nothing in the answer is left undocumented. */
function expectExactly(schema: z.ZodMiniType, body: unknown): void {
  const parsed = schema.safeParse(body);
  expect(parsed.error?.issues ?? [], JSON.stringify(body).slice(0, 500)).toEqual([]);
  expect(parsed.data).toEqual(body);
}

/** The answer is one the route documents: its status listed, its body as that status's schema says. */
function expectDocumented(response: ApiResponse, method: HttpMethod, route: string): void {
  const { description, path } = describedIn(route, method);
  const listed = Object.keys(document.paths[path][method.toLowerCase()].responses);
  expect(listed, `${response.status} of ${method} ${path}`).toContain(String(response.status));
  if (response.status === description.answer.status) {
    expect('body' in description.answer, `${method} ${path} answers JSON`).toBe(true);
    if ('body' in description.answer) expectExactly(description.answer.body, response.body);
    return;
  }
  const failure = description.errors?.[response.status];
  expectExactly(typeof failure === 'object' ? failure.body : errorEnvelopeSchema, response.body);
}

beforeAll(async () => {
  portal = await startInProcessPortal({
    SANDBOX_RECEIPTS: '60',
    SYNC_INTERVAL_SECONDS: '3600',
    DEMO_USERS: 'true',
    DEMO_PASSWORD,
  });
  document = (await new ApiClient(portal).get('/api/openapi.json')).body;
  admin = await signedInAdmin(portal);
  await waitForMirror(admin);
  demo = await signIn(portal, { username: 'demo', password: DEMO_PASSWORD });
  viewer = await signIn(portal, await createUser(admin, 'contract-viewer'));
  const own = await allReceipts(demo);
  ownReceiptId = own[0]!.id;
  othersReceiptId = (await allReceipts(admin)).find(
    (receipt) => !own.some((mine) => mine.id === receipt.id),
  )!.id;
});

afterAll(async () => {
  await portal?.stop();
});

describe('receipts', () => {
  it('the list, plain, searched and sorted, for a customer and for staff', async () => {
    expectDocumented(await demo.get('/api/receipts'), 'GET', 'receipts');
    expectDocumented(
      await demo.get('/api/receipts?search=a&sortBy=status&sortOrder=asc&limit=5'),
      'GET',
      'receipts',
    );
    // The same page again comes from the response cache.
    expectDocumented(
      await demo.get('/api/receipts?search=a&sortBy=status&sortOrder=asc&limit=5'),
      'GET',
      'receipts',
    );
    expectDocumented(await admin.get('/api/receipts?page=2&limit=10'), 'GET', 'receipts');
  });

  it('one receipt, with its history', async () => {
    const response = await demo.get(`/api/receipts/${ownReceiptId}`);
    expect(response.status).toBe(200);
    expectDocumented(response, 'GET', 'receipts/[id]');
  });

  it('the statistics, with their freshness', async () => {
    const response = await demo.get('/api/receipts/stats');
    expect(response.body.meta.lastSyncedAt).toEqual(expect.any(String));
    expectDocumented(response, 'GET', 'receipts/stats');
  });

  it('a share link made, then listed and revoked', async () => {
    const made = await demo.post(`/api/receipts/${ownReceiptId}/share`);
    expect(made.status).toBe(201);
    expectDocumented(made, 'POST', 'receipts/[id]/share');
    expectDocumented(await demo.get('/api/shares'), 'GET', 'shares');
    expectDocumented(
      await demo.delete(`/api/shares/${made.body.data.id}`),
      'DELETE',
      'shares/[id]',
    );
  });
});

describe('accounts', () => {
  it('the profile and the preferences', async () => {
    expectDocumented(await demo.get('/api/auth/profile'), 'GET', 'auth/profile');
    expectDocumented(
      await demo.get('/api/auth/profile/preferences'),
      'GET',
      'auth/profile/preferences',
    );
    expectDocumented(
      await demo.put('/api/auth/profile/preferences', { statusEmails: false }),
      'PUT',
      'auth/profile/preferences',
    );
  });

  it('a sign-in', async () => {
    const response = await new ApiClient(portal).post('/api/auth/login', {
      username: 'demo',
      password: DEMO_PASSWORD,
    });
    expect(response.status).toBe(200);
    expectDocumented(response, 'POST', 'auth/login');
  });

  it('the users, as the admin lists and creates them', async () => {
    const list = await admin.get('/api/auth/users');
    expect(list.body.data.length).toBeGreaterThanOrEqual(3);
    expectDocumented(list, 'GET', 'auth/users');
    const created = await admin.post('/api/auth/users', {
      username: 'contract-made',
      password: 'contract-password',
      fullName: null,
      email: null,
    });
    expect(created.status).toBe(201);
    expectDocumented(created, 'POST', 'auth/users');
  });
});

describe('administration', () => {
  it('assignments, the sync, the provider tokens, the audit trail and the branding', async () => {
    expectDocumented(
      await admin.get('/api/consignees/assignments'),
      'GET',
      'consignees/assignments',
    );
    expectDocumented(await admin.get('/api/sync'), 'GET', 'sync');
    expectDocumented(await admin.get('/api/tokens/status'), 'GET', 'tokens/status');
    expectDocumented(await admin.get('/api/audit?limit=5'), 'GET', 'audit');
    expectDocumented(await admin.get('/api/logo/info'), 'GET', 'logo/info');
    expectDocumented(await admin.get('/api/background/info'), 'GET', 'background/info');
  });

  it('the health checks and the settings', async () => {
    const machine = new ApiClient(portal);
    expectDocumented(await machine.get('/api/health', { origin: null }), 'GET', 'health');
    expectDocumented(await machine.get('/api/health/live', { origin: null }), 'GET', 'health/live');
    expectDocumented(
      await machine.get('/api/health/ready', { origin: null }),
      'GET',
      'health/ready',
    );
    expectDocumented(await demo.get('/api/config'), 'GET', 'config');
  });
});

describe('failures', () => {
  it('another customer’s receipt and an unknown one are the 404 the document lists', async () => {
    const response = await demo.get(`/api/receipts/${othersReceiptId}`);
    expect(response.status).toBe(404);
    expectDocumented(response, 'GET', 'receipts/[id]');
    expectDocumented(await demo.get('/api/receipts/0'), 'GET', 'receipts/[id]');
  });

  it('no session, the wrong role, refused input, a taken username and a body that is not JSON', async () => {
    const signedOut = await new ApiClient(portal).get('/api/receipts');
    expect(signedOut.status).toBe(401);
    expectDocumented(signedOut, 'GET', 'receipts');
    const forbidden = await viewer.get('/api/auth/users');
    expect(forbidden.status).toBe(403);
    expectDocumented(forbidden, 'GET', 'auth/users');
    const refused = await demo.get('/api/receipts?limit=0');
    expect(refused.status).toBe(400);
    expectDocumented(refused, 'GET', 'receipts');
    const taken = await admin.post('/api/auth/users', {
      username: 'contract-viewer',
      password: 'contract-password',
    });
    expect(taken.status).toBe(409);
    expect(taken.body.details).toEqual([{ field: 'username', message: expect.any(String) }]);
    expectDocumented(taken, 'POST', 'auth/users');
    const notJson = await demo.put('/api/auth/profile/preferences', undefined, {
      body: 'locale=nl',
      headers: { 'Content-Type': 'text/plain' },
    });
    expect(notJson.status).toBe(415);
    expectDocumented(notJson, 'PUT', 'auth/profile/preferences');
  });

  it('a wrong password is the 401 sign-in documents', async () => {
    const response = await new ApiClient(portal).post('/api/auth/login', {
      username: 'demo',
      password: 'not-the-password',
    });
    expect(response.status).toBe(401);
    expectDocumented(response, 'POST', 'auth/login');
  });
});
