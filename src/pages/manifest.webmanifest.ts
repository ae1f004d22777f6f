import type { APIRoute } from 'astro';
import { buildWebManifest } from '~/server/services/branding';

/** The web app manifest every page links (BareLayout.astro). */
export const GET: APIRoute = async (context) => {
  const { portal } = context.locals;
  const { logo } = await portal.branding.readOrDefaults();
  return new Response(JSON.stringify(buildWebManifest(portal.config.productName, logo)), {
    headers: {
      'Content-Type': 'application/manifest+json; charset=utf-8',
      'Cache-Control': 'public, max-age=3600',
    },
  });
};
