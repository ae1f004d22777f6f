/**
 * The API description's generator (src/server/http/openapi.ts): how route files become operations,
 * every way a file and its description can disagree, and how access becomes security: a session for
 * signed-in routes, and a personal API token too where the token-readable rule says so.
 */
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { describeEndpoint } from '~/server/http/api-description';
import {
  buildApiDocument,
  describedOperations,
  openApiPathOf,
  routePatternOf,
} from '~/server/http/openapi';
import { doneEnvelopeSchema, okEnvelope } from '~/shared/envelope';
import { routeIdSchema } from '~/shared/route-id';

const handler = () => new Response();
const itemSchema = z.object({ id: z.number(), name: z.string() });

/** Two route files as the glob hands them over: a list with a query, one item by id. */
const ROUTES = {
  '/src/pages/api/items/index.ts': {
    GET: handler,
    POST: handler,
    openapi: describeEndpoint({
      GET: {
        summary: 'List items',
        access: 'signed-in',
        query: z.object({ name: z.optional(z.string()) }),
        queryNotes: { name: { description: 'Items whose name contains this.' } },
        answer: { status: 200, body: okEnvelope(z.array(itemSchema)) },
      },
      POST: {
        summary: 'Make an item',
        access: ['admin'],
        body: z.object({ name: z.string() }),
        answer: { status: 201, body: okEnvelope(itemSchema) },
      },
    }),
  },
  '/src/pages/api/items/[id].ts': {
    GET: handler,
    openapi: describeEndpoint({
      GET: {
        summary: 'One item',
        access: 'signed-in',
        params: { id: routeIdSchema },
        answer: { status: 200, body: okEnvelope(itemSchema) },
      },
    }),
  },
  '/src/pages/api/ping.ts': {
    GET: handler,
    openapi: describeEndpoint({
      GET: { summary: 'Ping', access: 'public', answer: { status: 200, body: doneEnvelopeSchema } },
    }),
  },
};

describe('route files', () => {
  it('name their routes as Astro does, and their OpenAPI paths with braces', () => {
    expect(routePatternOf('/src/pages/api/receipts/[id].ts')).toBe('/api/receipts/[id]');
    expect(routePatternOf('/src/pages/api/auth/users/index.ts')).toBe('/api/auth/users');
    expect(routePatternOf('/src/pages/api/receipts/export.csv.ts')).toBe(
      '/api/receipts/export.csv',
    );
    expect(openApiPathOf('/api/consignees/[consigneeId]/remove-user/[userId]')).toBe(
      '/api/consignees/{consigneeId}/remove-user/{userId}',
    );
  });

  it('described as they export give one operation per method and no problem', () => {
    const { operations, problems } = describedOperations(ROUTES);
    expect(problems).toEqual([]);
    expect(operations.map(({ method, pattern }) => `${method} ${pattern}`)).toEqual([
      'GET /api/items/[id]',
      'GET /api/items',
      'POST /api/items',
      'GET /api/ping',
    ]);
  });

  it('name every disagreement: an undescribed method, a described one not exported, path parameters and query notes that differ', () => {
    const { problems } = describedOperations({
      '/src/pages/api/loose.ts': {
        GET: handler,
        DELETE: handler,
        openapi: {
          GET: ROUTES['/src/pages/api/ping.ts'].openapi.GET,
          PUT: ROUTES['/src/pages/api/ping.ts'].openapi.GET,
        },
      },
      '/src/pages/api/bare/[id].ts': { GET: handler },
      '/src/pages/api/things/[thingId].ts': {
        GET: handler,
        openapi: describeEndpoint({
          GET: {
            summary: 'A thing',
            access: 'signed-in',
            params: { id: routeIdSchema },
            query: z.object({ page: z.optional(z.string()) }),
            queryNotes: { pages: { description: 'A typo.' } },
            answer: { status: 200, body: doneEnvelopeSchema },
          },
        }),
      },
    });
    expect(problems).toEqual([
      'GET /api/bare/[id] is not described: /src/pages/api/bare/[id].ts exports no openapi.GET',
      'PUT /api/loose is described, but /src/pages/api/loose.ts exports no PUT handler',
      'DELETE /api/loose is not described: /src/pages/api/loose.ts exports no openapi.DELETE',
      'GET /api/things/[thingId] describes the path parameters [id], its path has [thingId]',
      'GET /api/things/[thingId] notes the query parameter pages, which its query schema does not have',
    ]);
  });

  it('leave out a catch-all: its ALL handler serves what no route does', () => {
    expect(describedOperations({ '/src/pages/api/[...path].ts': { ALL: handler } })).toEqual({
      operations: [],
      problems: [],
    });
  });
});

describe('the document', () => {
  const { operations } = describedOperations(ROUTES);
  const build = (isTokenReadable: Parameters<typeof buildApiDocument>[1]['isTokenReadable']) =>
    buildApiDocument(operations, {
      serverUrl: 'https://portal.example.com',
      isTokenReadable,
    }) as Record<string, any>;

  it('asks for the session on signed-in routes and nothing on public ones, and no token where none is readable', () => {
    const document = build(() => false);
    expect(document.paths['/api/items'].get.security).toEqual([{ cookieAuth: [] }]);
    expect(document.paths['/api/ping'].get.security).toEqual([]);
    expect(document.paths['/api/items'].get.responses).not.toHaveProperty('429');
  });

  it('marks a personal API token beside the session where the rule reads the operation as token-readable, with its 401 and 429', () => {
    const asked: string[] = [];
    const document = build(({ method, pattern }) => {
      asked.push(`${method} ${pattern}`);
      return method === 'GET';
    });
    const item = document.paths['/api/items/{id}'].get;
    expect(item.security).toEqual([{ cookieAuth: [] }, { bearerAuth: [] }]);
    expect(item.responses['401'].description).toMatch(/API token/);
    expect(item.responses['429'].headers).toHaveProperty('Retry-After');
    expect(item.description).toMatch(/personal API token/);
    expect(document.paths['/api/items'].post.security).toEqual([{ cookieAuth: [] }]);
    // A public operation needs no credential: the rule is not asked about it.
    expect(document.paths['/api/ping'].get.security).toEqual([]);
    expect(asked.sort()).toEqual(['GET /api/items', 'GET /api/items/[id]', 'POST /api/items']);
  });

  it('derives the failures from the access and the input, and names each operation uniquely', () => {
    const document = build(() => false);
    const post = document.paths['/api/items'].post;
    expect(Object.keys(post.responses).sort()).toEqual([
      '201',
      '400',
      '401',
      '403',
      '413',
      '415',
      'default',
    ]);
    expect(post.operationId).toBe('postItems');
    expect(post.requestBody.content['application/json'].schema).toEqual({
      type: 'object',
      properties: { name: { type: 'string' } },
      required: ['name'],
    });
    expect(Object.keys(document.paths['/api/items/{id}'].get.responses).sort()).toEqual([
      '200',
      '401',
      '404',
      'default',
    ]);
    expect(document.paths['/api/items/{id}'].get.operationId).toBe('getItemsById');
    expect(document.paths['/api/items'].get.parameters).toEqual([
      {
        name: 'name',
        in: 'query',
        required: false,
        description: 'Items whose name contains this.',
        schema: { type: 'string' },
      },
    ]);
  });
});
