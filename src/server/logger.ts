/**
 * The one logger of a portal (pino): JSON lines, or readable lines on a terminal. The composition root
 * makes it and hands it on as it does the clock. Every line a request causes carries its request id,
 * read from the portal's RequestScope, so that services log without knowing about requests.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { pino, stdSerializers, stdTimeFunctions, type DestinationStream, type Logger } from 'pino';
import pretty from 'pino-pretty';
import type { LogFormat, LogLevel } from './config';

export type { Logger };

/** What a line is about, besides requests: `{ component }` on every other line. */
export type LogComponent =
  | 'sync'
  | 'outbox'
  | 'mail'
  | 'provider'
  | 'auth'
  | 'startup'
  | 'shutdown'
  | 'http'
  | 'housekeeping'
  | 'branding';

/**
 * Fields that must never reach the log, at any level, should one be logged by mistake: credentials,
 * cookies, provider tokens, reset and invitation tokens, two-factor codes. Bodies are never logged.
 * They are censored at the top of a line and one level down (`body.password`), and a `headers` object
 * there loses its cookies and credentials.
 */
const SECRET_KEYS: ReadonlySet<string> = new Set([
  'password',
  'newPassword',
  'currentPassword',
  'token',
  'accessToken',
  'refreshToken',
  'access_token',
  'refresh_token',
  'clientSecret',
  'code',
  'cookie',
  'authorization',
]);
const SECRET_HEADERS: ReadonlySet<string> = new Set(['cookie', 'authorization', 'set-cookie']);
const CENSOR = '[redacted]';

/** A plain object or an error: what a line's fields hold (not a date, an array or a buffer). */
function isRecord(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null || value instanceof Error;
}

/**
 * The object without its secrets: secret keys at the top of a line and one level down
 * (`body.password`), and secret headers in a `headers` object at either level (`req.headers.cookie`).
 * The object itself when it has none (most lines), so a line costs no copy. pino's own redaction,
 * given paths under any key (`*.password`), parsed every path again for every field of every line:
 * it made nearly a quarter of a busy portal's garbage.
 */
function censored(
  object: Record<string, unknown>,
  depth: number,
  isHeaders: boolean,
): Record<string, unknown> {
  let copy: Record<string, unknown> | undefined;
  for (const key in object) {
    if (!Object.hasOwn(object, key)) continue;
    const value = object[key];
    let replacement = value;
    if ((depth <= 1 && SECRET_KEYS.has(key)) || (isHeaders && SECRET_HEADERS.has(key)))
      replacement = CENSOR;
    else if (isRecord(value) && (depth === 0 || (depth === 1 && key === 'headers')))
      replacement = censored(value, depth + 1, key === 'headers');
    if (replacement !== value) (copy ??= { ...object })[key] = replacement;
  }
  return copy ?? object;
}

/**
 * A line's fields without their secrets. An error (`err`) is serialized first, so that what it carries
 * (a `code`, a token in its options) is censored as its other fields are.
 */
export function withoutSecrets(line: Record<string, unknown>): Record<string, unknown> {
  const error = line.err;
  const fields = error instanceof Error ? { ...line, err: serializeError(error) } : line;
  return censored(fields, 0, false);
}

/**
 * An error as logged: its type, message, stack and cause, but not the statement and bound values a
 * database error carries (they may hold an address, a hash or an encrypted token).
 */
function serializeError(error: unknown): unknown {
  if (!(error instanceof Error)) return error;
  const {
    sql: _sql,
    parameters: _parameters,
    original: _original,
    parent: _parent,
    ...kept
  } = stdSerializers.err(error) as Record<string, unknown>;
  return kept;
}

/** The request a piece of work belongs to: the portal owns one, the request log enters it per request. */
export class RequestScope {
  private readonly storage = new AsyncLocalStorage<{ reqId: string }>();

  run<T>(reqId: string, work: () => T): T {
    return this.storage.run({ reqId }, work);
  }

  /** The fields every line logged within a request carries. */
  fields(): { reqId?: string } {
    // A copy: pino merges the line's own fields into what the mixin returns.
    const store = this.storage.getStore();
    return store ? { reqId: store.reqId } : {};
  }
}

export interface LoggerOptions {
  level: LogLevel;
  format: LogFormat;
  requestScope: RequestScope;
  /** Where lines go; standard output unless a test reads them itself. */
  destination?: DestinationStream;
}

export function createLogger({ level, format, requestScope, destination }: LoggerOptions): Logger {
  // Written synchronously: the lines before a process.exit (a failed start, a shutdown) are not lost.
  const target =
    format === 'pretty'
      ? pretty({
          destination: destination ?? 1,
          sync: true,
          colorize: destination === undefined && process.stdout.isTTY,
          ignore: 'pid,hostname',
        })
      : (destination ?? pino.destination({ dest: 1, sync: true }));
  return pino(
    {
      level,
      base: { pid: process.pid },
      timestamp: stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }), log: withoutSecrets },
      serializers: { err: serializeError },
      mixin: () => requestScope.fields(),
    },
    target,
  );
}
