/**
 * The API description, GET /api/openapi.json: a valid OpenAPI 3.1 document (checked by a maintained
 * validator), open to anyone and cached by ETag, that describes every method of every API route file
 * and nothing that is not one, with the envelope, the failures and the auth schemes.
 */
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../support/api-client';
import { signedInAdmin } from '../support/api-steps';
import { startInProcessPortal, type InProcessPortal } from '../support/in-process';

const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/** Every API route file with its exports, read here apart from the portal's own loading. */
const ROUTE_FILES = import.meta.glob<Record<string, unknown>>('/src/pages/api/**/*.ts', {
  eager: true,
});
/** Answers what no route serves: an unknown path's 404, no operation of its own. */
const CATCH_ALL = '/src/pages/api/[...path].ts';

/** `/src/pages/api/receipts/[id].ts` → `/api/receipts/{id}`. */
const documentPathOf = (file: string) =>
  file
    .replace(/^\/src\/pages/, '')
    .replace(/\.ts$/, '')
    .replace(/\/index$/, '')
    .replace(/\[(\w+)\]/g, '{$1}');

let portal: InProcessPortal;
let document: Record<string, any>;
let etag: string;

type Operation = Record<string, any>;
const operations = () =>
  Object.entries(document.paths as Record<string, Record<string, Operation>>).flatMap(
    ([path, item]) =>
      Object.entries(item).map(([method, operation]) => ({
        path,
        method: method.toUpperCase(),
        operation,
      })),
  );

beforeAll(async () => {
  portal = await startInProcessPortal({ PUBLIC_URL: 'https://portal.example.com' });
  const response = await new ApiClient(portal).get('/api/openapi.json', { origin: null });
  expect(response.status).toBe(200);
  document = response.body;
  etag = response.headers.get('etag')!;
});

afterAll(async () => {
  await portal?.stop();
});

describe('the document', () => {
  it('is a valid OpenAPI 3.1 document, served where the portal is', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(document));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
    expect(document.openapi).toBe('3.1.0');
    expect(document.servers).toEqual([{ url: 'https://portal.example.com' }]);
  });

  it('describes every method every API route file exports', () => {
    const missing: string[] = [];
    for (const [file, exports] of Object.entries(ROUTE_FILES)) {
      if (file === CATCH_ALL) continue;
      for (const method of HTTP_METHODS) {
        if (typeof exports[method] !== 'function') continue;
        if (!document.paths[documentPathOf(file)]?.[method.toLowerCase()])
          missing.push(`${method} ${documentPathOf(file)}`);
      }
    }
    expect(missing).toEqual([]);
    expect(operations().length).toBeGreaterThan(60);
  });

  it('describes nothing that is not a route file exporting that method', () => {
    const filesByPath = new Map(
      Object.keys(ROUTE_FILES).map((file) => [documentPathOf(file), file]),
    );
    const invented = operations()
      .filter(
        ({ path, method }) =>
          typeof ROUTE_FILES[filesByPath.get(path) ?? '']?.[method] !== 'function',
      )
      .map(({ path, method }) => `${method} ${path}`);
    expect(invented).toEqual([]);
    expect(filesByPath.get('/api/receipts/{id}')).toBe('/src/pages/api/receipts/[id].ts');
    expect(filesByPath.get('/api/auth/users')).toBe('/src/pages/api/auth/users/index.ts');
  });

  it('names both auth schemes, the session cookie by its name, and asks for the session where the route does', () => {
    expect(document.components.securitySchemes.cookieAuth).toMatchObject({
      type: 'apiKey',
      in: 'cookie',
      name: 'portal_session',
    });
    expect(document.components.securitySchemes.bearerAuth).toMatchObject({
      type: 'http',
      scheme: 'bearer',
    });
    // A personal API token may be offered beside it (read-only routes): the session always is.
    expect(document.paths['/api/receipts'].get.security).toContainEqual({ cookieAuth: [] });
    expect(document.paths['/api/auth/users'].post.security).toEqual([{ cookieAuth: [] }]);
    for (const open of [
      document.paths['/api/auth/login'].post,
      document.paths['/api/health/ready'].get,
      document.paths['/api/openapi.json'].get,
    ]) {
      expect(open.security).toEqual([]);
    }
  });

  it('gives every operation a unique id, its success in the envelope, and its failures in the error envelope', () => {
    const ids = operations().map(({ operation }) => operation.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    const list = document.paths['/api/receipts'].get;
    expect(list.responses['200'].content['application/json'].schema).toMatchObject({
      type: 'object',
      required: expect.arrayContaining(['success', 'data', 'pagination', 'meta']),
      properties: { success: { const: true }, data: { type: 'array' } },
    });
    expect(list.parameters.map((parameter: { name: string }) => parameter.name)).toEqual([
      'page',
      'limit',
      'sortBy',
      'sortOrder',
      'search',
      'trackingNumber',
    ]);
    const failures = Object.keys(document.paths['/api/auth/users/{id}'].put.responses);
    expect(failures).toEqual(
      expect.arrayContaining(['200', '400', '401', '403', '404', '409', '413', '415', 'default']),
    );
    expect(
      document.paths['/api/auth/users/{id}'].put.responses['401'].content['application/json']
        .schema,
    ).toEqual({
      $ref: '#/components/schemas/ErrorEnvelope',
    });
    expect(document.components.schemas.ErrorEnvelope.properties.errorType.enum).toContain(
      'VALIDATION_ERROR',
    );
    expect(document.paths['/api/receipts/{id}'].get.parameters).toEqual([
      expect.objectContaining({
        name: 'id',
        in: 'path',
        required: true,
        schema: expect.objectContaining({ type: 'string' }),
      }),
    ]);
    expect(document.paths['/api/receipts'].get.responses['503'].headers).toHaveProperty(
      'Retry-After',
    );
  });

  it('describes a request body by the schema the endpoint parses with, and an upload as multipart', () => {
    const login =
      document.paths['/api/auth/login'].post.requestBody.content['application/json'].schema;
    expect(login).toMatchObject({
      type: 'object',
      required: ['username', 'password'],
      properties: { username: { minLength: 3, maxLength: 30 } },
    });
    const upload =
      document.paths['/api/logo/upload'].post.requestBody.content['multipart/form-data'];
    expect(upload.schema.required).toEqual(['logo']);
    expect(upload.encoding.logo.contentType).toContain('image/png');
  });
});

describe('serving it', () => {
  it('answers anyone, without a session, with an ETag and a revalidating cache rule; the same ETag gets a 304', async () => {
    const client = new ApiClient(portal);
    const again = await client.get('/api/openapi.json', { headers: { 'If-None-Match': etag } });
    expect(again.status).toBe(304);
    expect(again.headers.get('etag')).toBe(etag);
    const fresh = await client.get('/api/openapi.json', {
      headers: { 'If-None-Match': '"something-else"' },
    });
    expect(fresh.status).toBe(200);
    expect(fresh.headers.get('etag')).toBe(etag);
    expect(fresh.headers.get('cache-control')).toBe('private, no-cache');
    expect(fresh.headers.get('content-type')).toMatch(/^application\/json/);
  });

  it('answers a signed-in admin the same document', async () => {
    const admin = await signedInAdmin(portal);
    const response = await admin.get('/api/openapi.json');
    expect(response.status).toBe(200);
    expect(response.headers.get('etag')).toBe(etag);
    expect(response.body).toEqual(document);
  });
});
