import { describeEndpoint } from '~/server/http/api-description';
import { portalApiDocument, type RouteModules } from '~/server/http/openapi';
import { handle } from '~/server/http/respond';
import { apiDocumentSchema } from '~/shared/envelope';

/** Every other API route file, loaded when the document is first asked for: a glob leaves out the file it is in. */
const ROUTE_FILES = import.meta.glob<Record<string, unknown>>('/src/pages/api/**/*.ts');

async function loadRouteFiles(): Promise<RouteModules> {
  const loaded = await Promise.all(
    Object.entries(ROUTE_FILES).map(async ([file, load]) => [file, await load()] as const),
  );
  return { ...Object.fromEntries(loaded), '/src/pages/api/openapi.json.ts': { GET, openapi } };
}

// Public: the document holds no data, and tools read it before they have any credential.
export const GET = handle(async (context) => {
  const { portal } = context.locals;
  return portal.apiDocument.response(context.request, async () => {
    const { document, problems } = portalApiDocument(
      await loadRouteFiles(),
      portal.config.publicUrl.origin,
    );
    for (const problem of problems) portal.log.warn({ component: 'openapi' }, problem);
    return document;
  });
});

export const openapi = describeEndpoint({
  GET: {
    summary: 'This API description',
    description:
      'The OpenAPI 3.1 document of every /api route, outside the envelope. It carries an ETag: ' +
      'send it back in If-None-Match to get a 304.',
    access: 'public',
    answer: { status: 200, body: apiDocumentSchema },
    alsoAnswers: { 304: 'Not Modified: the document is the one the If-None-Match header names.' },
  },
});
