/**
 * Logo and background:
 * POST /api/logo/upload, GET /api/logo/info, DELETE /api/logo/current, the background's four calls,
 * the public image endpoints, and what every page then carries.
 */
import { createHash } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  GIF_IMAGE,
  HTML_AS_PNG_FILE,
  JPEG_IMAGE,
  SVG_FILE,
  TEXT_FILE,
  WEBP_IMAGE,
  pngFile,
  pngImage,
} from '../support/images';
import { backgroundUrlsOf, fetchImage, uploadImage } from '../support/branding-steps';
import { startPortal, type Portal } from '../support/portal';
import { ApiClient, type ApiResponse } from '../support/api-client';
import { createUser, expectError, signIn, signedInAdmin } from '../support/api-steps';

const MB = 1024 * 1024;
const LOGO_TOO_LARGE = 'File size must be less than 1MB';
const LOGO_NOT_ALLOWED = 'Only JPEG, PNG, GIF, and WebP files are allowed';
const LOGO_NOT_IMAGE = 'Please select an image file';
const BACKGROUND_TOO_LARGE = 'File size must be less than 4MB';
const BACKGROUND_INVALID = 'Please select a valid image file';
const OPACITY_REFUSED = 'Opacity must be a number from 0.1 to 1 in steps of 0.05';

let portal: Portal;
let admin: ApiClient;
const others: Record<'anonymous' | 'viewer' | 'admin-viewer', ApiClient> = {} as never;

beforeAll(async () => {
  portal = await startPortal({ LOGIN_MAX_ATTEMPTS: '1000' });
  admin = await signedInAdmin(portal);
  others.anonymous = new ApiClient(portal);
  others.viewer = await signIn(portal, await createUser(admin, 'brand-viewer', 'viewer'));
  others['admin-viewer'] = await signIn(
    portal,
    await createUser(admin, 'brand-adminviewer', 'admin-viewer'),
  );
});

afterAll(async () => {
  await portal?.stop();
});

const upload = uploadImage;

/** An image as `client` gets it; by default as someone not signed in, as the sign-in page's visitor. */
const fetchAs = (url: string, client: ApiClient = new ApiClient(portal)) => fetchImage(client, url);

/** What is in UPLOADS_DIR, temporary files included. */
async function storedFiles(): Promise<string[]> {
  return (await readdir(path.join(portal.dir, 'uploads')).catch(() => [] as string[])).sort();
}

/** The uploads as they came: the files that are not variants (`<name>-<width>.<extension>`). */
async function originals(): Promise<string[]> {
  return (await storedFiles()).filter((file) => !/-\d+\.\w+$/.test(file));
}

async function info(kind: 'logo' | 'background'): Promise<Record<string, any>> {
  const response = await admin.get(`/api/${kind}/info`);
  expect(response.status).toBe(200);
  return response.body.data;
}

/** The page's branding <style> element and whether the page's CSP allows it by its hash. */
async function brandingStyleOf(
  client: ApiClient,
  page: string,
): Promise<{ css: string | null; allowed: boolean }> {
  const response = await client.get(page);
  expect(response.status).toBe(200);
  const css = /<style>((?::root|body)\{[^<]*)<\/style>/.exec(response.body)?.[1] ?? null;
  const policy = response.headers.get('content-security-policy') ?? '';
  const styleSources = /(?:^|;)\s*style-src ([^;]*)/.exec(policy)?.[1]?.split(/\s+/) ?? [];
  const hash = css && `'sha256-${createHash('sha256').update(css).digest('base64')}'`;
  return { css, allowed: hash !== null && styleSources.includes(hash) };
}

describe('who may call', () => {
  const calls: Array<[string, (client: ApiClient) => Promise<ApiResponse>]> = [
    ['POST /api/logo/upload', (client) => upload(client, 'logo', pngFile('logo.png'))],
    ['GET /api/logo/info', (client) => client.get('/api/logo/info')],
    ['DELETE /api/logo/current', (client) => client.delete('/api/logo/current')],
    [
      'POST /api/background/upload',
      (client) => upload(client, 'background', pngFile('background.png')),
    ],
    ['GET /api/background/info', (client) => client.get('/api/background/info')],
    [
      'PUT /api/background/opacity',
      (client) => client.put('/api/background/opacity', { opacity: 0.5 }),
    ],
    ['DELETE /api/background/current', (client) => client.delete('/api/background/current')],
  ];

  it.each(calls)(
    'when someone signed out calls %s, then 401 and nothing changes',
    async (_name, call) => {
      expectError(await call(others.anonymous), 401, 'AUTHENTICATION_ERROR');
    },
  );

  it.each(
    calls.flatMap(([name, call]) =>
      (['viewer', 'admin-viewer'] as const).map((role) => [name, role, call] as const),
    ),
  )('when a %s call comes from a %s, then 403', async (_name, role, call) => {
    expectError(await call(others[role]), 403, 'FORBIDDEN');
  });

  it('after all those refusals, nothing was stored', async () => {
    expect(await info('logo')).toEqual({
      hasLogo: false,
      logoPath: null,
      originalPath: null,
      originalName: null,
      size: null,
      uploadedAt: null,
    });
    expect(await info('background')).toMatchObject({ hasBackground: false, opacity: 0.9 });
    expect(await storedFiles()).toEqual([]);
  });

  it('when an upload comes from another site with the admin cookie, then 403 and nothing is stored', async () => {
    expectError(
      await upload(admin, 'logo', pngFile('logo.png'), { origin: 'https://evil.example' }),
      403,
      'FORBIDDEN',
    );
    expect(await storedFiles()).toEqual([]);
  });
});

describe('logo', () => {
  const firstLogo = pngFile('Company Logo.png', { rgb: [200, 30, 30] });

  it('when there is no logo, then the info says so and the image endpoints answer 404', async () => {
    expect(await info('logo')).toEqual({
      hasLogo: false,
      logoPath: null,
      originalPath: null,
      originalName: null,
      size: null,
      uploadedAt: null,
    });
    expect((await fetchAs('/api/logo/image', admin)).status).toBe(404);
    expect((await fetchAs('/api/logo/image/56.webp')).status).toBe(404);
  });

  it('when the admin uploads a PNG, then it is stored under a name of the server, its variant served publicly with its type, nosniff and a long cache', async () => {
    const before = Date.now();
    const response = await upload(admin, 'logo', firstLogo);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body.message).toBe('Logo uploaded successfully');
    const stored = response.body.data;
    expect(stored).toMatchObject({
      hasLogo: true,
      originalName: 'Company Logo.png',
      size: firstLogo.bytes.length,
    });
    expect(Date.parse(stored.uploadedAt)).toBeGreaterThanOrEqual(before - 1000);
    const version = Date.parse(stored.uploadedAt);
    expect(stored.originalPath).toBe(`/api/logo/image?v=${version}`);
    // A 4 × 4 logo is smaller than any displayed size: its one variant is its own size.
    expect(stored.logoPath).toBe(`/api/logo/image/4.webp?v=${version}`);
    expect(await info('logo')).toEqual(stored);

    const files = await originals();
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^[0-9a-f]{32}\.png$/);

    // Public: the sign-in page shows it to people not yet signed in.
    const image = await fetchAs(stored.logoPath);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/webp');
    expect(image.headers.get('x-content-type-options')).toBe('nosniff');
    expect(image.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    // The upload itself is the admin's: a download, whole.
    const original = await fetchAs(stored.originalPath, admin);
    expect(original.bytes.equals(firstLogo.bytes)).toBe(true);
    expect(original.headers.get('content-type')).toBe('image/png');
    expect((await fetchAs(stored.originalPath)).status).toBe(401);
  });

  it('when the image is asked for under another version than the current one, then it is not cached for good', async () => {
    const image = await fetchAs('/api/logo/image/4.webp?v=1');
    expect(image.status).toBe(200);
    expect(image.headers.get('cache-control')).toBe('no-cache');
  });

  describe('refused uploads leave the logo, its file and the folder as they were', () => {
    const refusals: Array<[string, () => Promise<ApiResponse>, number, string]> = [
      ['an SVG', () => upload(admin, 'logo', SVG_FILE), 400, LOGO_NOT_ALLOWED],
      [
        'an HTML page named .png and declared image/png',
        () => upload(admin, 'logo', HTML_AS_PNG_FILE),
        400,
        LOGO_NOT_ALLOWED,
      ],
      ['a text file', () => upload(admin, 'logo', TEXT_FILE), 400, LOGO_NOT_IMAGE],
      [
        'a 1.1 MB PNG',
        () => upload(admin, 'logo', pngFile('big.png', { size: Math.round(1.1 * MB) })),
        413,
        LOGO_TOO_LARGE,
      ],
      [
        'a 1.1 MB PNG sent without a length',
        () =>
          upload(admin, 'logo', pngFile('big.png', { size: Math.round(1.1 * MB) }), {
            chunked: true,
          }),
        413,
        LOGO_TOO_LARGE,
      ],
      [
        'a PNG one byte over 1 MB',
        () => upload(admin, 'logo', pngFile('big.png', { size: MB + 1 })),
        413,
        LOGO_TOO_LARGE,
      ],
      ['a form without a file', () => upload(admin, 'logo', null), 400, LOGO_NOT_IMAGE],
      [
        'an image in another field only',
        () => upload(admin, 'logo', null, { extra: [{ field: 'image', file: pngFile('x.png') }] }),
        400,
        LOGO_NOT_IMAGE,
      ],
      [
        'an empty file',
        () =>
          upload(admin, 'logo', { bytes: Buffer.alloc(0), name: 'empty.png', type: 'image/png' }),
        400,
        LOGO_NOT_IMAGE,
      ],
      [
        'two files',
        () =>
          upload(admin, 'logo', pngFile('a.png'), {
            extra: [{ field: 'logo', file: pngFile('b.png') }],
          }),
        400,
        'Upload one file at a time',
      ],
      [
        'a JSON body',
        () => admin.post('/api/logo/upload', { logo: 'data:image/png;base64,AAAA' }),
        400,
        LOGO_NOT_IMAGE,
      ],
    ];

    it.each(refusals)(
      'when the admin uploads %s, then it is refused with the exact message',
      async (_case, send, status, message) => {
        const before = await info('logo');
        const filesBefore = await storedFiles();
        expect(before.hasLogo).toBe(true);

        expectError(
          await send(),
          status,
          status === 413 ? 'PAYLOAD_TOO_LARGE' : 'VALIDATION_ERROR',
          message,
        );

        expect(await info('logo')).toEqual(before);
        expect(await storedFiles()).toEqual(filesBefore);
        const image = await fetchAs(before.originalPath, admin);
        expect(image.bytes.equals(firstLogo.bytes)).toBe(true);
      },
    );
  });

  it('when the admin uploads a PNG of exactly 1 MB, then it is accepted (at most 1MB)', async () => {
    const exact = pngFile('exact.png', { size: MB });
    const response = await upload(admin, 'logo', exact);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body.data.size).toBe(MB);
  });

  it.each([
    ['JPEG', JPEG_IMAGE, 'image/jpeg', 'jpg'],
    ['GIF', GIF_IMAGE, 'image/gif', 'gif'],
    ['WebP', WEBP_IMAGE, 'image/webp', 'webp'],
    // The declared type is the sender's word; the bytes decide what is stored and served.
    [
      'PNG declared as application/octet-stream',
      pngImage({ rgb: [1, 2, 3] }),
      'application/octet-stream',
      'png',
    ],
  ])(
    'when the admin uploads a %s, then it replaces the logo, is served as %s, and the old file is removed',
    async (_format, bytes, type, extension) => {
      const before = await info('logo');
      const response = await upload(admin, 'logo', { bytes, name: `logo.${extension}`, type });
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      expect(response.body.data.logoPath).not.toBe(before.logoPath);

      const files = await originals();
      expect(files).toHaveLength(1);
      expect(files[0]).toMatch(new RegExp(`^[0-9a-f]{32}\\.${extension}$`));
      const image = await fetchAs(response.body.data.originalPath, admin);
      expect(image.bytes.equals(bytes)).toBe(true);
      expect(image.headers.get('content-type')).toBe(
        type === 'application/octet-stream' ? 'image/png' : type,
      );
      // Only this upload's variants are left: the old logo's went with it.
      const stem = files[0]!.replace(/\.\w+$/, '');
      expect((await storedFiles()).filter((file) => !file.startsWith(stem))).toEqual([]);
    },
  );

  it('when a logo is set, then the sign-in page shows it, with the script that falls back to the default icon', async () => {
    const { logoPath } = await info('logo');
    const page = await others.anonymous.get('/login');
    expect(page.body).toContain(`<source type="image/webp" srcset="${logoPath} 1x">`);
    expect(page.body).toContain('data-brand-logo="/logo-default.svg"');
    expect(page.body).toMatch(/<script type="module">[^<]*data-brand-logo[^<]*<\/script>/);
  });

  it('when the admin deletes the logo, then it is gone everywhere: info, image, file, pages', async () => {
    const { logoPath } = await info('logo');
    const response = await admin.delete('/api/logo/current');
    expect(response.status).toBe(200);
    expect(response.body.message).toBe('Logo deleted successfully');
    expect(response.body.data).toEqual({
      hasLogo: false,
      logoPath: null,
      originalPath: null,
      originalName: null,
      size: null,
      uploadedAt: null,
    });
    expect(await info('logo')).toEqual(response.body.data);
    expect((await fetchAs(logoPath)).status).toBe(404);
    expect((await storedFiles()).filter((file) => /\.(png|jpg|gif|webp)$/.test(file))).toEqual([]);

    const page = await others.anonymous.get('/login');
    expect(page.body).toContain('src="/logo-default.svg"');
    expect(page.body).not.toContain('/api/logo/image');
    expect(page.body).not.toMatch(/<script type="module">[^<]*data-brand-logo/);
  });

  it('when there is no logo to delete, then 404', async () => {
    expectError(await admin.delete('/api/logo/current'), 404, 'NOT_FOUND', 'No logo to delete');
  });
});

describe('background', () => {
  const firstBackground = pngFile('harbour.png', { width: 16, height: 9, rgb: [10, 80, 120] });

  it('when nothing was set, then the info has no background and the default opacity 0.9', async () => {
    expect(await info('background')).toEqual({
      hasBackground: false,
      backgroundPath: null,
      originalPath: null,
      originalName: null,
      size: null,
      uploadedAt: null,
      opacity: 0.9,
    });
    expect(await brandingStyleOf(others.anonymous, '/login')).toEqual({
      css: null,
      allowed: false,
    });
  });

  it('when the admin uploads a PNG, then it is stored and served, and every page has it as background, allowed by the CSP', async () => {
    const response = await upload(admin, 'background', firstBackground);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body.message).toBe('Background uploaded successfully!');
    const stored = response.body.data;
    expect(stored).toMatchObject({
      hasBackground: true,
      originalName: 'harbour.png',
      size: firstBackground.bytes.length,
      opacity: 0.9,
    });
    // A 16 × 9 background is narrower than any width made: its one width, in the three formats.
    expect(stored.backgroundPath).toBe(
      `/api/background/image/16.webp?v=${Date.parse(stored.uploadedAt)}`,
    );
    expect(await info('background')).toEqual(stored);

    const image = await fetchAs(stored.backgroundPath);
    expect(image.headers.get('content-type')).toBe('image/webp');
    expect(image.headers.get('x-content-type-options')).toBe('nosniff');
    expect(image.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect((await fetchAs(stored.originalPath, admin)).bytes.equals(firstBackground.bytes)).toBe(
      true,
    );

    for (const [client, page] of [
      [others.anonymous, '/login'],
      [admin, '/dashboard'],
      [others.viewer, '/receipts'],
    ] as const) {
      const style = await brandingStyleOf(client, page);
      expect(style.css).toContain(
        'body{background-position:center;background-size:cover;background-attachment:fixed;background-repeat:no-repeat}',
      );
      const variants = ['avif', 'webp', 'jpg'].map((extension) =>
        stored.backgroundPath.replace('.webp', `.${extension}`),
      );
      expect(backgroundUrlsOf(`<style>${style.css}</style>`).sort()).toEqual(variants.sort());
      expect(style.allowed).toBe(true);
    }
  });

  it('when the admin uploads a 1.1 MB PNG (over the logo limit, under 4MB), then it is accepted', async () => {
    const response = await upload(
      admin,
      'background',
      pngFile('large.png', { size: Math.round(1.1 * MB) }),
    );
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(await originals()).toHaveLength(1);
  });

  it('when the admin uploads the first background again, then it replaces the large one and the old file is removed', async () => {
    const response = await upload(admin, 'background', firstBackground);
    expect(response.status).toBe(200);
    const files = await originals();
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^[0-9a-f]{32}\.png$/);
    const stem = files[0]!.replace(/\.\w+$/, '');
    expect((await storedFiles()).filter((file) => !file.startsWith(stem))).toEqual([]);
  });

  describe('refused uploads leave the background, its file and the folder as they were', () => {
    const refusals: Array<[string, () => Promise<ApiResponse>, number, string]> = [
      ['an SVG', () => upload(admin, 'background', SVG_FILE), 400, BACKGROUND_INVALID],
      [
        'an HTML page named .png and declared image/png',
        () => upload(admin, 'background', HTML_AS_PNG_FILE),
        400,
        BACKGROUND_INVALID,
      ],
      ['a text file', () => upload(admin, 'background', TEXT_FILE), 400, BACKGROUND_INVALID],
      [
        'a 4.3 MB PNG',
        () => upload(admin, 'background', pngFile('huge.png', { size: Math.round(4.3 * MB) })),
        413,
        BACKGROUND_TOO_LARGE,
      ],
      [
        'a 4.3 MB PNG sent without a length',
        () =>
          upload(admin, 'background', pngFile('huge.png', { size: Math.round(4.3 * MB) }), {
            chunked: true,
          }),
        413,
        BACKGROUND_TOO_LARGE,
      ],
      ['a form without a file', () => upload(admin, 'background', null), 400, BACKGROUND_INVALID],
    ];

    it.each(refusals)(
      'when the admin uploads %s, then it is refused with the exact message',
      async (_case, send, status, message) => {
        const before = await info('background');
        const filesBefore = await storedFiles();
        expect(before.hasBackground).toBe(true);

        expectError(
          await send(),
          status,
          status === 413 ? 'PAYLOAD_TOO_LARGE' : 'VALIDATION_ERROR',
          message,
        );

        expect(await info('background')).toEqual(before);
        expect(await storedFiles()).toEqual(filesBefore);
        expect(
          (await fetchAs(before.originalPath, admin)).bytes.equals(firstBackground.bytes),
        ).toBe(true);
      },
    );
  });

  describe('card opacity', () => {
    it.each([
      ['0.05 (under 0.1)', { opacity: 0.05 }],
      ['1.5 (over 1)', { opacity: 1.5 }],
      ["'abc'", { opacity: 'abc' }],
      ["'0.5' as text", { opacity: '0.5' }],
      ['0.33 (between steps)', { opacity: 0.33 }],
      ['null', { opacity: null }],
      ['nothing', {}],
    ])(
      'when the admin sets %s, then 400 with a clear message and the opacity stays',
      async (_case, payload) => {
        const before = (await info('background')).opacity;
        expectError(
          await admin.put('/api/background/opacity', payload),
          400,
          'VALIDATION_ERROR',
          OPACITY_REFUSED,
        );
        expect((await info('background')).opacity).toBe(before);
      },
    );

    it.each([0.1, 1])('when the admin sets the bound %s, then it is accepted', async (opacity) => {
      const response = await admin.put('/api/background/opacity', { opacity });
      expect(response.status).toBe(200);
      expect(response.body.data.opacity).toBe(opacity);
    });

    it('when the admin sets 0.35, then the info says 0.35 and every page gives cards that opacity, allowed by the CSP', async () => {
      const response = await admin.put('/api/background/opacity', { opacity: 0.35 });
      expect(response.status).toBe(200);
      expect(response.body.message).toBe('Opacity updated successfully!');
      expect(response.body.data).toMatchObject({ hasBackground: true, opacity: 0.35 });
      expect((await info('background')).opacity).toBe(0.35);

      for (const [client, page] of [
        [others.anonymous, '/login'],
        [others.viewer, '/dashboard'],
      ] as const) {
        const style = await brandingStyleOf(client, page);
        expect(style.css).toMatch(/^:root\{--card-opacity:0\.35\}body\{background-position/);
        expect(style.allowed).toBe(true);
      }
    });
  });

  it('when the portal restarts, then the background and the opacity are still there', async () => {
    const before = await info('background');
    await portal.stop({ keepDir: true });
    portal = await startPortal({ LOGIN_MAX_ATTEMPTS: '1000' }, { dir: portal.dir });
    admin = await signedInAdmin(portal);
    expect(await info('background')).toEqual(before);
    expect((await fetchAs(before.originalPath, admin)).bytes.equals(firstBackground.bytes)).toBe(
      true,
    );
    expect((await brandingStyleOf(new ApiClient(portal), '/login')).css).toContain(
      '--card-opacity:0.35',
    );
  });

  it('when the admin deletes the background, then it is gone with its file and the pages keep only the opacity', async () => {
    const { backgroundPath } = await info('background');
    const response = await admin.delete('/api/background/current');
    expect(response.status).toBe(200);
    expect(response.body.message).toBe('Background deleted successfully!');
    expect(response.body.data).toEqual({
      hasBackground: false,
      backgroundPath: null,
      originalPath: null,
      originalName: null,
      size: null,
      uploadedAt: null,
      opacity: 0.35,
    });
    expect((await fetchAs(backgroundPath)).status).toBe(404);
    expect(await storedFiles()).toEqual([]);
    expect(await brandingStyleOf(new ApiClient(portal), '/login')).toEqual({
      css: ':root{--card-opacity:0.35}',
      allowed: true,
    });
    expectError(
      await admin.delete('/api/background/current'),
      404,
      'NOT_FOUND',
      'No background to delete',
    );
  });
});
