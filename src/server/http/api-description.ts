/**
 * How an endpoint describes itself for the API description (GET /api/openapi.json, built by
 * src/server/http/openapi.ts): beside its handlers, a route file exports
 * `openapi = describeEndpoint({ GET: { … }, POST: { … } })`, one entry per method it exports. The
 * schemas named here are the very ones the handler parses with and answers in (src/shared), so the
 * description cannot say other than the code does. docs/architecture.md "Describing an API route".
 */
import type * as z from 'zod/mini';
import type { Role } from '~/shared/constants';

export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

/** Anyone; any signed-in user; or only users of these roles. */
export type Access = 'public' | 'signed-in' | readonly Role[];

/** A JSON answer: its status and the schema of its whole body, the envelope included. */
export interface JsonAnswer {
  status: 200 | 201 | 202;
  body: z.ZodMiniType;
}

/** A file (a CSV export, an image): its possible media types and what it is. */
export interface FileAnswer {
  status: 200;
  mediaTypes: readonly string[];
  description: string;
}

/** A file sent as multipart/form-data: the part that carries it, its size limit and its accepted types. */
export interface UploadDescription {
  field: string;
  maxBytes: number;
  mediaTypes: readonly string[];
  /** False when the file is optional beside the other fields. */
  required?: boolean;
}

/** A failure the operation answers: when it happens; with its own body when that is not the error envelope. */
export type FailureDescription = string | { description: string; body: z.ZodMiniType };

/**
 * What a query parameter's schema cannot say in JSON Schema (a parse that transforms the text): its
 * meaning, its choices, and what its absence means, written as the query string would (`'20'`).
 */
export interface ParameterNote {
  description: string;
  enum?: readonly string[];
  default?: string;
}

export interface OperationDescription {
  summary: string;
  description?: string;
  access: Access;
  /** Each `[name]` of the route's path, with the schema it is parsed with. */
  params?: Readonly<Record<string, z.ZodMiniType>>;
  /** The object schema the query string is parsed with. */
  query?: z.ZodMiniType;
  queryNotes?: Readonly<Record<string, ParameterNote>>;
  /** The JSON body's schema; with `upload`, the fields that go along with the file. */
  body?: z.ZodMiniType;
  upload?: UploadDescription;
  answer: JsonAnswer | FileAnswer;
  /** Answers without a body beside the main one, by status (304 Not Modified). */
  alsoAnswers?: Readonly<Record<number, string>>;
  /**
   * Failures beyond those the access, the path's ids and the input already imply (401, 403, 404, 400,
   * 413, 415: src/server/http/openapi.ts adds those), by status; also overrides an implied one's text.
   */
  errors?: Readonly<Partial<Record<number, FailureDescription>>>;
}

export type EndpointDescription = Readonly<Partial<Record<HttpMethod, OperationDescription>>>;

/** Typed by the description it is given; checked against the route's exports by the API description's tests. */
export function describeEndpoint<Description extends EndpointDescription>(
  description: Description,
): Description {
  return description;
}

/** Failures several routes answer alike, to spread into an operation's `errors`. */
export const SHARED_FAILURES = {
  providerDown: {
    502: 'The provider cannot be reached (EXTERNAL_API_ERROR, with Retry-After).',
    503: 'The provider is unavailable (EXTERNAL_API_ERROR, with Retry-After).',
  },
  notSynced: {
    503: 'No receipts have been synced from the provider yet (EXTERNAL_API_ERROR, with Retry-After).',
  },
  twoFactorOff: { 404: 'Two-factor sign-in is off on this portal (TWO_FACTOR=off).' },
  mailOff: { 404: 'E-mail is off on this portal (no SMTP_URL): there is no such link to use.' },
  passkeysOff: {
    404: "Passkeys are off on this portal: PUBLIC_URL's host is an IP address, which cannot be a relying party ID.",
  },
} as const;
