/**
 * The API description, GET /api/openapi.json: an OpenAPI 3.1 document built from the descriptions the
 * route files export beside their handlers (src/server/http/api-description.ts). Each schema in it is
 * zod's own JSON Schema of the shared schema the endpoint parses with or answers in: zod-to-openapi
 * cannot read zod's mini build, which the shared schemas use to stay small in the browser, so zod
 * converts them and zod-to-openapi assembles the document (paths, security, components).
 */
import { createHash } from 'node:crypto';
import {
  OpenAPIRegistry,
  OpenApiGeneratorV31,
  type ResponseConfig,
  type RouteConfig,
} from '@asteasolutions/zod-to-openapi';
import * as z from 'zod/mini';
import { isTokenReadable } from '~/shared/api-token-access';
import { SESSION_COOKIE } from '~/shared/constants';
import { errorEnvelopeSchema } from '~/shared/envelope';
import { LOCALE_COOKIE } from '~/shared/locale';
import {
  HTTP_METHODS,
  type Access,
  type EndpointDescription,
  type FailureDescription,
  type HttpMethod,
  type OperationDescription,
} from './api-description';
import { EncodedJson, EncodingChooser } from './encoded-json';

/** Route files by their path (`/src/pages/api/receipts/[id].ts`), with their exports. */
export type RouteModules = Readonly<Record<string, Record<string, unknown>>>;

export interface DescribedOperation {
  method: HttpMethod;
  /** As Astro names the route: `/api/receipts/[id]`. */
  pattern: string;
  description: OperationDescription;
}

/** `/src/pages/api/receipts/[id].ts` → `/api/receipts/[id]`; an `index.ts` is its folder's route. */
export function routePatternOf(file: string): string {
  return file
    .replace(/^.*\/src\/pages/, '')
    .replace(/\.ts$/, '')
    .replace(/\/index$/, '');
}

/** `/api/receipts/[id]` → `/api/receipts/{id}`. */
export function openApiPathOf(pattern: string): string {
  return pattern.replace(/\[(\w+)\]/g, '{$1}');
}

const pathParameters = (pattern: string) =>
  [...pattern.matchAll(/\[(\w+)\]/g)].map((match) => match[1]!);

type JsonSchema = Record<string, unknown> & {
  properties?: Record<string, Record<string, unknown>>;
  required?: string[];
};

/**
 * zod's JSON Schema (2020-12, OpenAPI 3.1's dialect) of what a request may send (`input`) or an
 * answer holds (`output`).
 */
function jsonSchemaOf(schema: z.ZodMiniType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _dialect, ...json } = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io,
    unrepresentable: 'any',
  }) as JsonSchema;
  return json;
}

/** Where an operation's description disagrees with its route: its path's parameters, its query notes. */
function parameterProblems({ method, pattern, description }: DescribedOperation): string[] {
  const problems: string[] = [];
  const inPath = pathParameters(pattern).sort().join(', ');
  const described = Object.keys(description.params ?? {})
    .sort()
    .join(', ');
  if (inPath !== described)
    problems.push(
      `${method} ${pattern} describes the path parameters [${described}], its path has [${inPath}]`,
    );
  const queryNames = Object.keys(
    (description.query && jsonSchemaOf(description.query, 'input').properties) ?? {},
  );
  for (const name of Object.keys(description.queryNotes ?? {})) {
    if (!queryNames.includes(name))
      problems.push(
        `${method} ${pattern} notes the query parameter ${name}, which its query schema does not have`,
      );
  }
  return problems;
}

/**
 * Every operation the route files describe, and every way the files and their descriptions disagree:
 * a method exported and not described, one described and not exported, parameters that differ. An
 * `ALL` handler (the catch-all's) serves what no route does and is no operation of its own.
 */
export function describedOperations(modules: RouteModules): {
  operations: DescribedOperation[];
  problems: string[];
} {
  const operations: DescribedOperation[] = [];
  const problems: string[] = [];
  for (const [file, exports] of Object.entries(modules).sort(([a], [b]) => a.localeCompare(b))) {
    const pattern = routePatternOf(file);
    const descriptions = (exports.openapi ?? {}) as EndpointDescription;
    for (const method of HTTP_METHODS) {
      const handled = typeof exports[method] === 'function';
      const description = descriptions[method];
      if (handled && !description)
        problems.push(
          `${method} ${pattern} is not described: ${file} exports no openapi.${method}`,
        );
      if (!handled && description)
        problems.push(
          `${method} ${pattern} is described, but ${file} exports no ${method} handler`,
        );
      if (!handled || !description) continue;
      const operation = { method, pattern, description };
      problems.push(...parameterProblems(operation));
      operations.push(operation);
    }
  }
  return { operations, problems };
}

export interface ApiDocumentOptions {
  /** The portal's public origin, where the paths are served. */
  serverUrl: string;
  /** Whether a personal API token may call the operation, besides a session (read-only routes only). */
  isTokenReadable: (operation: { method: HttpMethod; pattern: string }) => boolean;
}

/** `GET /api/auth/users/[id]/2fa` → `getAuthUsersById2fa`. */
function operationIdOf(method: HttpMethod, pattern: string): string {
  const capital = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);
  const words = pattern
    .replace(/^\/api\/?/, '')
    .split('/')
    .filter(Boolean)
    .flatMap((segment) => {
      const parameter = /^\[(\w+)\]$/.exec(segment);
      return parameter
        ? [`By${capital(parameter[1]!)}`]
        : segment.split(/[^A-Za-z0-9]+/).map(capital);
    });
  return method.toLowerCase() + words.join('');
}

/** The first segment after /api groups the operations: `receipts`, `auth`, `consignees`… */
const tagOf = (pattern: string) => pattern.split('/')[2]!.split('.')[0]!;

const isPublic = (access: Access): access is 'public' => access === 'public';
const isRoles = (access: Access): access is Exclude<Access, string> => typeof access !== 'string';

function accessText(access: Access, tokenReadable: boolean): string {
  const who = isPublic(access)
    ? 'Open to anyone, without a session.'
    : isRoles(access)
      ? `Only for a signed-in user of the role ${access.join(' or ')}.`
      : "Any signed-in user, in that user's own scope.";
  return tokenReadable
    ? `${who} A personal API token (read-only) works as well as the session.`
    : who;
}

function securityOf(access: Access, tokenReadable: boolean): Array<Record<string, string[]>> {
  if (isPublic(access)) return [];
  return tokenReadable ? [{ cookieAuth: [] }, { bearerAuth: [] }] : [{ cookieAuth: [] }];
}

/** The failures every operation of this kind can answer, before the operation's own. */
function impliedFailures(
  { method, description }: DescribedOperation,
  tokenReadable: boolean,
): Record<number, FailureDescription> {
  const { access, params, query, body, upload } = description;
  const failures: Record<number, FailureDescription> = {};
  if (query || body || upload)
    failures[400] =
      'The input is refused: `message` says why, `details` names each field and its problem.';
  if (!isPublic(access)) {
    failures[401] = tokenReadable
      ? 'No session, or the API token is unknown, expired or revoked.'
      : 'No session: sign in first.';
  }
  const refusals = [
    isRoles(access) && 'the signed-in user lacks the role',
    method !== 'GET' && 'the request came from another site',
  ].filter(Boolean);
  if (refusals.length > 0) failures[403] = `Refused: ${refusals.join(', or ')}.`;
  if (params)
    failures[404] = 'Nothing of that id, or nothing the caller may see: both answer the same.';
  if (body || upload) failures[413] = 'The body is larger than allowed.';
  if (body && !upload)
    failures[415] = 'The body is not JSON: send `Content-Type: application/json`.';
  if (tokenReadable)
    failures[429] = 'Too many requests with this API token: wait the Retry-After header’s seconds.';
  return failures;
}

/** Seconds to wait: with 429 and with a provider that is down (502, 503). */
const RETRY_AFTER_HEADER = {
  'Retry-After': {
    description: 'Seconds to wait before trying again.',
    schema: { type: 'integer' as const },
  },
};
const WITH_RETRY_AFTER: ReadonlySet<number> = new Set([429, 502, 503]);

function failureResponse(
  status: number,
  failure: FailureDescription,
  errorRef: { $ref: string },
): ResponseConfig {
  const [description, schema] =
    typeof failure === 'string'
      ? [failure, errorRef]
      : [failure.description, jsonSchemaOf(failure.body, 'output')];
  return {
    description,
    content: { 'application/json': { schema } },
    ...(WITH_RETRY_AFTER.has(status) && { headers: RETRY_AFTER_HEADER }),
  };
}

const SUCCESS_TEXT = {
  200: 'Done.',
  201: 'Created.',
  202: 'Accepted: the work goes on after the answer.',
} as const;

function answerResponse({ answer }: OperationDescription): ResponseConfig {
  if ('body' in answer)
    return {
      description: SUCCESS_TEXT[answer.status],
      content: { 'application/json': { schema: jsonSchemaOf(answer.body, 'output') } },
    };
  return {
    description: answer.description,
    content: Object.fromEntries(answer.mediaTypes.map((mediaType) => [mediaType, {}])),
  };
}

function requestBodyOf({ body, upload }: OperationDescription): RouteConfig['request'] {
  if (!body && !upload) return undefined;
  const json = body && { 'application/json': { schema: jsonSchemaOf(body, 'input') } };
  if (!upload) return { body: { required: true, content: json! } };
  const fields = body ? jsonSchemaOf(body, 'input') : { properties: {}, required: [] };
  const file = {
    type: 'string' as const,
    contentMediaType: 'application/octet-stream',
    description: `At most ${upload.maxBytes} bytes.`,
  };
  const multipart = {
    schema: {
      type: 'object' as const,
      properties: { ...fields.properties, [upload.field]: file },
      required: [...(fields.required ?? []), ...(upload.required === false ? [] : [upload.field])],
    },
    encoding: { [upload.field]: { contentType: upload.mediaTypes.join(', ') } },
  };
  return { body: { required: true, content: { ...json, 'multipart/form-data': multipart } } };
}

function parametersOf({
  pattern,
  description,
}: DescribedOperation): NonNullable<RouteConfig['parameters']> {
  const inPath = pathParameters(pattern).map((name) => ({
    name,
    in: 'path' as const,
    required: true,
    schema: jsonSchemaOf(description.params![name]!, 'input'),
  }));
  if (!description.query) return inPath;
  const query = jsonSchemaOf(description.query, 'input');
  const inQuery = Object.entries(query.properties ?? {}).map(([name, schema]) => {
    const note = description.queryNotes?.[name];
    return {
      name,
      in: 'query' as const,
      required: query.required?.includes(name) ?? false,
      ...(note && { description: note.description }),
      schema: {
        ...schema,
        ...(note?.enum && { enum: [...note.enum] }),
        ...(note?.default !== undefined && { default: note.default }),
      },
    };
  });
  return [...inPath, ...inQuery];
}

function routeConfigOf(
  operation: DescribedOperation,
  options: ApiDocumentOptions,
  errorRef: { $ref: string },
): RouteConfig {
  const { method, pattern, description } = operation;
  const tokenReadable =
    !isPublic(description.access) && options.isTokenReadable({ method, pattern });
  const failures = { ...impliedFailures(operation, tokenReadable), ...description.errors };
  const responses: RouteConfig['responses'] = {
    [description.answer.status]: answerResponse(description),
  };
  for (const [status, text] of Object.entries(description.alsoAnswers ?? {}))
    responses[status] = { description: text };
  for (const [status, failure] of Object.entries(failures))
    if (failure) responses[status] = failureResponse(Number(status), failure, errorRef);
  responses.default = failureResponse(
    500,
    'Any other failure, such as INTERNAL_ERROR (500): the error envelope.',
    errorRef,
  );
  const request = requestBodyOf(description);
  const parameters = parametersOf(operation);
  return {
    method: method.toLowerCase() as Lowercase<HttpMethod>,
    path: openApiPathOf(pattern),
    operationId: operationIdOf(method, pattern),
    tags: [tagOf(pattern)],
    summary: description.summary,
    description: [description.description, accessText(description.access, tokenReadable)]
      .filter(Boolean)
      .join('\n\n'),
    security: securityOf(description.access, tokenReadable),
    ...(parameters.length > 0 && { parameters }),
    ...(request && { request }),
    responses,
  };
}

const DOCUMENT_DESCRIPTION = [
  "The portal's JSON API. Every answer is an envelope: `{ success: true, data, message? }` (lists add `pagination`,",
  'some answers `meta`), or on failure `{ success: false, message, errorType, details?, retryAfter? }`, with the',
  'HTTP status of its `errorType`. `message` is in the language of the request (a saved preference, the',
  `\`${LOCALE_COOKIE}\` cookie or Accept-Language).`,
].join(' ');

/** The OpenAPI 3.1 document of the described operations. */
export function buildApiDocument(
  operations: readonly DescribedOperation[],
  options: ApiDocumentOptions,
) {
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', 'cookieAuth', {
    type: 'apiKey',
    in: 'cookie',
    name: SESSION_COOKIE,
    description:
      'The session of a signed-in browser (POST /api/auth/login sets it). A request that changes ' +
      'anything must come from the portal’s own origin.',
  });
  registry.registerComponent('securitySchemes', 'bearerAuth', {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'fp_…',
    description:
      'A personal API token (`Authorization: Bearer fp_…`), made in Profile → API tokens: ' +
      'read-only, in its owner’s scope, rate-limited.',
  });
  const errorRef = registry.registerComponent(
    'schemas',
    'ErrorEnvelope',
    jsonSchemaOf(errorEnvelopeSchema, 'output'),
  ).ref;
  for (const operation of operations)
    registry.registerPath(routeConfigOf(operation, options, errorRef));
  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: { title: 'Freight portal API', version: '1', description: DOCUMENT_DESCRIPTION },
    servers: [{ url: options.serverUrl }],
  });
}

/**
 * The portal's own document, GET /api/openapi.json, from its route files: what the route answers and
 * what the browser client's types are generated from (scripts/api-types.mjs), so the two are one.
 */
export function portalApiDocument(modules: RouteModules, serverUrl: string) {
  const { operations, problems } = describedOperations(modules);
  const document = buildApiDocument(operations, {
    serverUrl,
    isTokenReadable: ({ method, pattern }) => isTokenReadable(method, pattern),
  });
  return { document, problems };
}

/** The document as answered: its bytes compressed once, its ETag a hash of them. */
interface BuiltDocument {
  etag: string;
  encoded: EncodedJson;
}

/**
 * The same for every caller, so answered with `private, no-cache` and an ETag: a client revalidates
 * and gets a 304 while the portal runs the same version. Private, because an answer on any path may
 * carry the portal's user-marker cookie, which no shared cache may hand to someone else.
 */
const DOCUMENT_HEADERS = {
  'Content-Type': 'application/json; charset=utf-8',
  'Cache-Control': 'private, no-cache',
};

/** The portal's API description, built on its first request and then answered from memory. */
export class ApiDocumentAnswer {
  private built: Promise<BuiltDocument> | undefined;
  private readonly encodings = new EncodingChooser();

  async response(request: Request, build: () => Promise<object>): Promise<Response> {
    this.built ??= build().then(
      (document) => {
        const text = JSON.stringify(document);
        return {
          etag: `"${createHash('sha256').update(text).digest('base64url')}"`,
          encoded: new EncodedJson(text),
        };
      },
      (error: unknown) => {
        // The next request tries again.
        this.built = undefined;
        throw error;
      },
    );
    const { etag, encoded } = await this.built;
    const ifNoneMatch = request.headers.get('if-none-match');
    if (
      ifNoneMatch
        ?.split(',')
        .some((tag) => tag.trim().replace(/^W\//, '') === etag || tag.trim() === '*')
    ) {
      return new Response(null, {
        status: 304,
        headers: { ETag: etag, 'Cache-Control': DOCUMENT_HEADERS['Cache-Control'] },
      });
    }
    return encoded.response(request, { ...DOCUMENT_HEADERS, ETag: etag }, this.encodings);
  }
}
