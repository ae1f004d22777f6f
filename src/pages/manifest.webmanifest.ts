import type { APIRoute } from 'astro';
import { config } from '~/server/config';
import { readBrandingOrDefaults } from '~/server/services/branding';
import { buildWebManifest } from '~/server/services/web-manifest';

/** The web app manifest every page links (BareLayout.astro). */
export const GET: APIRoute = async () => {
  const { logo } = await readBrandingOrDefaults();
  return new Response(JSON.stringify(buildWebManifest(config.productName, logo)), {
    headers: { 'Content-Type': 'application/manifest+json; charset=utf-8', 'Cache-Control': 'public, max-age=3600' },
  });
};
