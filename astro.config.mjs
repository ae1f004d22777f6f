// @ts-check
import { defineConfig } from 'astro/config';
import node from '@astrojs/node';
import react from '@astrojs/react';
import tailwindcss from '@tailwindcss/vite';
import { fileURLToPath } from 'node:url';

/**
 * The Node adapter in middleware mode, with our own server entry (src/server/entry.ts): Astro's handler
 * beside the portal's composition root, which server.mjs builds the portal with. The adapter's API lets
 * an adapter name its entry (`serverEntrypoint`); this sets ours on the adapter it registers.
 */
function nodeAdapterWithPortalEntry() {
  const adapter = node({ mode: 'middleware' });
  const registerAdapter = adapter.hooks['astro:config:done'];
  if (!registerAdapter)
    throw new Error('@astrojs/node no longer registers its adapter in astro:config:done');
  const serverEntrypoint = fileURLToPath(new URL('./src/server/entry.ts', import.meta.url));
  adapter.hooks['astro:config:done'] = (options) =>
    registerAdapter({
      ...options,
      setAdapter: (registered) => options.setAdapter({ ...registered, serverEntrypoint }),
    });
  return adapter;
}

export default defineConfig({
  output: 'server',
  adapter: nodeAdapterWithPortalEntry(),
  integrations: [
    react(),
    {
      name: 'hydrate-on-interaction',
      hooks: {
        'astro:config:setup': ({ addClientDirective }) =>
          addClientDirective({
            name: 'interaction',
            entrypoint: fileURLToPath(
              new URL('./src/islands/hydrate-on-interaction.ts', import.meta.url),
            ),
          }),
      },
    },
  ],
  server: { port: 4321 },
  security: {
    // Replaced by our own origin step (src/server/http/origin.ts): it also accepts PUBLIC_URL's
    // origin, which Astro cannot know at build time, so form posts keep working behind a proxy.
    checkOrigin: false,
    csp: {
      algorithm: 'SHA-256',
      directives: [
        "default-src 'self'",
        "img-src 'self' data: blob:",
        "connect-src 'self'",
        "font-src 'self'",
        // The offline service worker (/sw.js) and the web app manifest.
        "worker-src 'self'",
        "manifest-src 'self'",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
      ],
    },
  },
  build: { inlineStylesheets: 'never' },
  vite: {
    plugins: [tailwindcss()],
    // Leaflet's stylesheet names PNGs for controls and default markers the map never shows
    // (its markers are SVGs from public/map/): leave them as files rather than base64 in the CSS.
    build: {
      assetsInlineLimit: (file) => (file.includes('/node_modules/leaflet/') ? false : undefined),
    },
    ssr: {
      external: ['sequelize', 'sqlite3', 'pg', 'bcrypt', 'umzug', 'nodemailer'],
      // What Astro's and the adapter's run time imports goes into the bundle, so that astro itself (with
      // its compiler and bundler) is a build tool only: a production install leaves it out.
      noExternal: [
        'astro',
        '@astrojs/node',
        '@astrojs/react',
        'unstorage',
        'html-escaper',
        'ultrahtml',
        'server-destroy',
        'piccolore',
        'mrmime',
        'devalue',
        'clsx',
        '@oslojs/encoding',
        'destr',
      ],
    },
    // React in one chunk of its own: otherwise the split follows which islands share what, and
    // /login pays an extra request for a few hundred bytes the receipts screen happened to pull out.
    environments: {
      client: {
        build: {
          rolldownOptions: {
            output: {
              codeSplitting: {
                groups: [
                  { name: 'react', test: /node_modules[\\/]react[\\/]/ },
                  // What every page script and island starts with (API client, formatter, the messages'
                  // runtime), in one file rather than five: on /dashboard each request costs its headers.
                  {
                    name: 'core',
                    test: /src[\\/](shared[\\/](api-client|format|sync|locale|offline-cache)\.ts|stores[\\/]query-cache\.ts|islands[\\/]common[\\/](locale|freshness-style)\.ts|paraglide[\\/]runtime\.js)/,
                  },
                ],
              },
            },
          },
        },
      },
    },
  },
});
