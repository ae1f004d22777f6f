/**
 * The browser client's types (src/shared/api-paths.ts, written by `npm run api-types` before the build
 * and the type check) are those of the API description the portal serves: generated again here from
 * the route files, they are the file on disk, so a file left stale by a changed schema fails. And a
 * call's answer type follows its path: the narrowest documented path it fits, its parameters filled in.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { portalApiDocument, type RouteModules } from '~/server/http/openapi';
import type { ApiAnswer, ApiData, ApiPath } from '~/shared/api-client';
import type { PublicKeyCredentialCreationOptionsJSON } from '@simplewebauthn/browser';
import type { DashboardStats } from '~/shared/receipts';
import { API_TYPES_FILE, apiTypesOf } from '../../scripts/lib/api-types.mjs';

/** Every API route file with its exports, as the portal's document loads them. */
const ROUTE_FILES: RouteModules = import.meta.glob('/src/pages/api/**/*.ts', { eager: true });

describe('the generated types', () => {
  it('are what the served description gives: run `npm run api-types` after changing a schema', async () => {
    const { document, problems } = portalApiDocument(ROUTE_FILES, 'http://localhost');
    expect(problems).toEqual([]);
    const onDisk = readFileSync(API_TYPES_FILE, 'utf8');
    const stale = `${API_TYPES_FILE} differs from the API description: run \`npm run api-types\``;
    // Compared whole: a difference printed line by line would be thousands of lines.
    expect(onDisk === (await apiTypesOf(document)), stale).toBe(true);
  });
});

describe('a call', () => {
  it('answers the type documented for its method and path, parameters and query filled in', () => {
    expectTypeOf<ApiData<'GET', '/receipts/stats'>>().toEqualTypeOf<DashboardStats>();
    expectTypeOf<
      ApiData<'POST', '/auth/passkeys/registration/options'>['options']
    >().toExtend<PublicKeyCredentialCreationOptionsJSON>();
    expectTypeOf<ApiData<'DELETE', `/auth/users/${number}/tokens`>>().toEqualTypeOf<{
      revoked: number;
    }>();
    expectTypeOf<
      ApiAnswer<'GET', `/receipts?${string}`>['pagination']['totalPages']
    >().toEqualTypeOf<number>();
  });

  it('names only documented paths for its method', () => {
    expectTypeOf<'/receipts/stats'>().toExtend<ApiPath<'GET'>>();
    expectTypeOf<'/receipts/stats'>().not.toExtend<ApiPath<'DELETE'>>();
    expectTypeOf<'/no-such-route'>().not.toExtend<ApiPath<'GET'>>();
  });
});
