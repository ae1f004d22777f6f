import type { APIRoute } from 'astro';
import { hasBearerToken } from '~/server/http/bearer';

// Prometheus scrapes this with METRICS_TOKEN as its bearer token; without METRICS_TOKEN it does not exist.
export const GET: APIRoute = async ({ request, locals }) => {
  const { config, metrics } = locals.portal;
  if (config.metricsToken === null)
    return new Response('Not found', { status: 404, headers: { 'Cache-Control': 'no-store' } });
  if (!hasBearerToken(request, config.metricsToken)) {
    return new Response('Unauthorized', {
      status: 401,
      headers: { 'WWW-Authenticate': 'Bearer realm="metrics"', 'Cache-Control': 'no-store' },
    });
  }
  const { text, contentType } = await metrics.exposition();
  return new Response(text, {
    headers: { 'Content-Type': contentType, 'Cache-Control': 'no-store' },
  });
};
