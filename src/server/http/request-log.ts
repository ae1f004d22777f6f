/**
 * One log line and one metric observation per request, taken where the bytes leave (Node's response),
 * so that the status, the size after compression and the whole duration are the real ones. The route
 * pattern comes from the middleware (`locals.routePattern`): never the concrete path, which may hold a
 * reset or invitation token, nor the query string.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Config } from '../config';
import type { Logger, RequestScope } from '../logger';
import type { HttpMetrics } from '../metrics';

export const REQUEST_ID_HEADER = 'X-Request-Id';
/** A proxy's id is taken only in this shape: it is written into every log line of the request. */
const FORWARDED_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
/** Files server.mjs serves itself, before Astro: logged at debug, measured under one route. */
export const STATIC_ROUTE = '(static)';

export interface RequestLogDeps {
  config: Pick<Config, 'trustProxy'>;
  log: Logger;
  requestScope: RequestScope;
  metrics: HttpMetrics;
}

/** What the middleware leaves in the request's locals for its line. */
export interface LoggedLocals {
  routePattern?: string;
  user?: { id: number } | null;
  apiTokenId?: number | null;
}

/** The request's id: the proxy's, with TRUST_PROXY and a safe shape, or a new one. */
export function requestIdOf(header: string | string[] | undefined, trustProxy: boolean): string {
  const forwarded = Array.isArray(header) ? header[0] : header;
  return trustProxy && forwarded !== undefined && FORWARDED_REQUEST_ID.test(forwarded)
    ? forwarded
    : randomUUID();
}

/**
 * Gives the request its id (echoed in X-Request-Id), runs `serve` within it so that every line the
 * request causes carries it, and logs the request line once the answer is out or the client went away.
 */
export function observeRequest(
  deps: RequestLogDeps,
  req: IncomingMessage,
  res: ServerResponse,
  locals: LoggedLocals,
  serve: () => void,
): void {
  const reqId = requestIdOf(req.headers['x-request-id'], deps.config.trustProxy);
  res.setHeader(REQUEST_ID_HEADER, reqId);
  const startedAt = performance.now();
  const socket = req.socket;
  const bytesBefore = socket.bytesWritten;
  res.once('close', () => {
    const ms = performance.now() - startedAt;
    const route = locals.routePattern || STATIC_ROUTE;
    const status = res.statusCode;
    deps.metrics.requestFinished(req.method ?? 'GET', route, status, ms / 1000);
    const line = {
      reqId,
      method: req.method,
      route,
      status,
      ms: Math.round(ms * 10) / 10,
      bytes: socket.bytesWritten - bytesBefore,
      ...(locals.user && { userId: locals.user.id }),
      ...(locals.apiTokenId && { apiTokenId: locals.apiTokenId }),
      ...(!res.writableFinished && { aborted: true }),
    };
    if (route === STATIC_ROUTE) deps.log.debug(line, 'request');
    else deps.log.info(line, 'request');
  });
  deps.requestScope.run(reqId, serve);
}
