/**
 * Languages in the receipts API: every `message` of /api/receipts* and /api/package-tracker* follows the
 * request's language (Accept-Language here), while status and errorType stay what they were.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInProcessPortal, type InProcessPortal } from '../support/in-process';
import { CLOSED_PORT } from '../support/portal';
import type { ApiClient } from '../support/api-client';
import { expectError, signedInAdmin, waitForMirror } from '../support/api-steps';

const DUTCH = { headers: { 'Accept-Language': 'nl-NL,nl;q=0.9,en;q=0.5' } };
const ENGLISH = { headers: { 'Accept-Language': 'en-US,en;q=0.9' } };

let portal: InProcessPortal;
let admin: ApiClient;
let downPortal: InProcessPortal;
let downAdmin: ApiClient;

beforeAll(async () => {
  [portal, downPortal] = await Promise.all([
    startInProcessPortal({ SYNC_INTERVAL_SECONDS: '3600', SANDBOX_RECEIPTS: '30' }),
    // A provider address where nothing listens: the mirror is never filled and the look-up cannot reach it.
    startInProcessPortal({
      PROVIDER: 'http',
      PROVIDER_URL: `http://127.0.0.1:${CLOSED_PORT}/provider`,
    }),
  ]);
  [admin, downAdmin] = await Promise.all([signedInAdmin(portal), signedInAdmin(downPortal)]);
  await waitForMirror(admin);
});

afterAll(async () => {
  await Promise.all([portal?.stop(), downPortal?.stop()]);
});

describe('bad query parameters', () => {
  it.each([
    [
      '/api/receipts?sortBy=password',
      'sortBy moet een van de volgende waarden zijn: receivedDate, number, shipperName, consigneeName, status, destination, modeOfTransportation, origin',
      'sortBy must be one of receivedDate, number, shipperName, consigneeName, status, destination, modeOfTransportation, origin',
    ],
    [
      '/api/receipts?sortOrder=sideways',
      'sortOrder moet asc of desc zijn',
      'sortOrder must be asc or desc',
    ],
    [
      '/api/receipts?page=0',
      'page moet een geheel getal van 1 tot en met 1000000 zijn',
      'page must be a whole number from 1 to 1000000',
    ],
    [
      '/api/receipts?limit=101',
      'limit moet een geheel getal van 1 tot en met 100 zijn',
      'limit must be a whole number from 1 to 100',
    ],
    [
      '/api/receipts?search=ab%00cd',
      'De zoekopdracht mag geen stuurtekens bevatten',
      'Search must not contain control characters',
    ],
    [
      `/api/receipts?search=${'a'.repeat(101)}`,
      'De zoekopdracht mag niet langer zijn dan 100 tekens',
      'Search must not exceed 100 characters',
    ],
    [
      '/api/receipts?trackingNumber=1Z99999',
      'Het trackingnummer moet minstens 8 tekens lang zijn',
      'Tracking number must be at least 8 characters',
    ],
    [
      '/api/package-tracker/search',
      'Het trackingnummer moet minstens 8 tekens lang zijn',
      'Tracking number must be at least 8 characters',
    ],
    [
      '/api/package-tracker/search?trackingNumber=1Z999%0AAA10123',
      'Het trackingnummer mag geen stuurtekens bevatten',
      'Tracking number must not contain control characters',
    ],
    [
      `/api/package-tracker/search?trackingNumber=${'9'.repeat(65)}`,
      'Het trackingnummer mag niet langer zijn dan 64 tekens',
      'Tracking number must not exceed 64 characters',
    ],
  ])(
    'when %s is asked for in Dutch, then 400 VALIDATION_ERROR in Dutch; in English or without a language, in English',
    async (path, dutch, english) => {
      expectError(await admin.get(path, DUTCH), 400, 'VALIDATION_ERROR', dutch);
      expectError(await admin.get(path, ENGLISH), 400, 'VALIDATION_ERROR', english);
      expectError(await admin.get(path), 400, 'VALIDATION_ERROR', english);
    },
  );

  it('when a bad query comes in Dutch, then its field details are in Dutch too', async () => {
    const response = await admin.get('/api/receipts?sortOrder=sideways', DUTCH);
    expect(response.body.details).toEqual([
      { field: 'sortOrder', message: 'sortOrder moet asc of desc zijn' },
    ]);
  });
});

describe('not found', () => {
  it.each(['/api/receipts/999999999', '/api/receipts/not-a-number'])(
    'when %s is asked for, then 404 NOT_FOUND: "Ontvangstbewijs niet gevonden" in Dutch, "Receipt not found" in English',
    async (path) => {
      expectError(await admin.get(path, DUTCH), 404, 'NOT_FOUND', 'Ontvangstbewijs niet gevonden');
      expectError(await admin.get(path, ENGLISH), 404, 'NOT_FOUND', 'Receipt not found');
    },
  );

  it('when a package nobody scanned is looked up in Dutch, then an empty answer: nothing to translate, nothing refused', async () => {
    const response = await admin.get(
      '/api/package-tracker/search?trackingNumber=NOSUCHPACKAGE0001',
      DUTCH,
    );
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, data: [] });
  });
});

describe('the logistics provider unavailable', () => {
  it.each(['/api/receipts', '/api/receipts/stats', '/api/receipts/1'])(
    'when %s is asked for before the first sync, then 503 EXTERNAL_API_ERROR in the request language',
    async (path) => {
      expectError(
        await downAdmin.get(path, DUTCH),
        503,
        'EXTERNAL_API_ERROR',
        'De ontvangstbewijzen zijn nog niet beschikbaar: het logistieke systeem heeft nog niet geantwoord. Probeer het zo meteen opnieuw.',
      );
      expectError(
        await downAdmin.get(path, ENGLISH),
        503,
        'EXTERNAL_API_ERROR',
        'Receipts are not available yet: the logistics provider has not answered. Please try again shortly.',
      );
    },
  );

  it('when the package look-up cannot reach the provider, then EXTERNAL_API_ERROR with the same status in both languages', async () => {
    const dutch = await downAdmin.get(
      '/api/package-tracker/search?trackingNumber=1Z999AA10123456784',
      DUTCH,
    );
    const english = await downAdmin.get(
      '/api/package-tracker/search?trackingNumber=1Z999AA10123456784',
      ENGLISH,
    );
    expect([502, 503]).toContain(dutch.status);
    expectError(
      dutch,
      english.status,
      'EXTERNAL_API_ERROR',
      'Het logistieke systeem is op dit moment niet bereikbaar. Probeer het later opnieuw.',
    );
    expectError(
      english,
      dutch.status,
      'EXTERNAL_API_ERROR',
      'The logistics provider is not available right now. Please try again later.',
    );
  });
});
