/**
 * What becomes of an uploaded image: a camera's photo is turned upright, loses its EXIF data (GPS
 * position included) and is made into widths and formats for screens; pages send those, never the
 * upload, which only the admin may download. Decompression bombs and images over 40 megapixels are
 * refused before they are decoded. An image uploaded before variants existed gets them at the next
 * start, once.
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../support/api-client';
import {
  createUser,
  expectError,
  signIn,
  signedInAdmin,
  writeDatabase,
} from '../support/api-steps';
import { backgroundUrlsOf, fetchImage, uploadImage } from '../support/branding-steps';
import { animatedGif, brokenPng, cameraPhoto, largePng, pngFile } from '../support/images';
import { startInProcessPortal, type InProcessPortal } from '../support/in-process';
import { stallLimit } from '../support/test-pace';

let portal: InProcessPortal;
let admin: ApiClient;
let viewer: ApiClient;
let anonymous: ApiClient;
/** The camera's photo: 3000 × 2000 pixels lying on their side (orientation 6), a 2000 × 3000 picture upright. */
let photo: Buffer;

beforeAll(async () => {
  portal = await startInProcessPortal({ LOGIN_MAX_ATTEMPTS: '1000' }, { background: false });
  admin = await signedInAdmin(portal);
  viewer = await signIn(portal, await createUser(admin, 'images-viewer', 'viewer'));
  anonymous = new ApiClient(portal);
  photo = await cameraPhoto({ orientation: 6 });
});

afterAll(async () => {
  await portal?.stop();
});

const storedFiles = async () =>
  (await readdir(path.join(portal.dir, 'uploads')).catch(() => [] as string[])).sort();

describe('a camera photo as the background', () => {
  let uploaded: Record<string, any>;
  let urls: string[];

  beforeAll(async () => {
    expect(photo.length).toBeGreaterThan(1_500_000);
    expect((await sharp(photo).metadata()).exif?.toString('latin1')).toContain('WGS-84');
    const response = await uploadImage(admin, 'background', {
      bytes: photo,
      name: 'IMG_0042.JPG',
      type: 'image/jpeg',
    });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    uploaded = response.body.data;
    urls = backgroundUrlsOf((await anonymous.get('/login')).body);
  }, stallLimit(120_000));

  it('when it is uploaded, then pages offer it at 640, 800, 1280 and 1920 px in AVIF, WebP and JPEG, and never the upload itself', () => {
    const names = urls
      .map((url) => /\/api\/background\/image\/([^?]+)\?v=\d+$/.exec(url)?.[1])
      .sort();
    expect(names).toEqual(
      [
        '1280.avif',
        '1280.jpg',
        '1280.webp',
        '1920.avif',
        '1920.jpg',
        '1920.webp',
        '640.avif',
        '640.jpg',
        '640.webp',
        '800.avif',
        '800.jpg',
        '800.webp',
      ].sort(),
    );
    expect(urls).not.toContain(uploaded.originalPath);
    expect(uploaded.backgroundPath).toMatch(/^\/api\/background\/image\/1280\.webp\?v=\d+$/);
  });

  it('when a variant is fetched by anyone, then it is public, of its own type, nosniff and cached for good', async () => {
    for (const url of urls) {
      const image = await fetchImage(anonymous, url);
      expect(image.status, url).toBe(200);
      const format = (await sharp(image.bytes).metadata()).format;
      const expected = { avif: 'image/avif', webp: 'image/webp', jpg: 'image/jpeg' }[
        url.split('?')[0]!.split('.').pop()!
      ];
      expect(image.headers.get('content-type'), url).toBe(expected);
      expect(
        { heif: 'image/avif', webp: 'image/webp', jpeg: 'image/jpeg' }[format as string],
        url,
      ).toBe(expected);
      expect(image.headers.get('x-content-type-options')).toBe('nosniff');
      expect(image.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    }
  });

  it('when the variants are read, then they stand upright (2 : 3) and carry no EXIF data, no GPS position, no orientation', async () => {
    for (const url of urls) {
      const metadata = await sharp((await fetchImage(anonymous, url)).bytes).metadata();
      const width = Number(/\/(\d+)\.\w+\?/.exec(url)![1]);
      expect(metadata.width, url).toBe(width);
      expect(metadata.height, url).toBe(Math.round(width * 1.5));
      expect(metadata.exif, url).toBeUndefined();
      expect(metadata.orientation, url).toBeUndefined();
    }
  });

  it('when the phone-sized variant is sent, then it is a small fraction of the upload', async () => {
    const avif = (
      await fetchImage(
        anonymous,
        urls.find((url) => url.includes('/800.avif'))!,
      )
    ).bytes.length;
    expect(avif).toBeLessThan(photo.length / 10);
  });

  it('when the original is asked for, then only the admin gets it, whole, as a download under its uploaded name', async () => {
    const original = await fetchImage(admin, uploaded.originalPath);
    expect(original.status).toBe(200);
    expect(original.bytes.equals(photo)).toBe(true);
    expect(original.headers.get('content-disposition')).toBe(
      `attachment; filename="IMG_0042.JPG"; filename*=UTF-8''IMG_0042.JPG`,
    );
    expect(original.headers.get('cache-control')).toBe('private, max-age=31536000, immutable');
    expect((await fetchImage(anonymous, uploaded.originalPath)).status).toBe(401);
    expect((await fetchImage(viewer, uploaded.originalPath)).status).toBe(403);
  });

  it('when a variant name that was never made is asked for, then 404', async () => {
    const version = uploaded.originalPath.split('?')[1];
    for (const name of ['300.avif', '800.png', '..%2F..%2Fdb%2Fportal.sqlite', 'a1']) {
      expect(
        (await fetchImage(anonymous, `/api/background/image/${name}?${version}`)).status,
        name,
      ).toBe(404);
    }
  });
});

describe('images refused before they are decoded', () => {
  let bomb: Buffer;
  let tooLarge: Buffer;

  beforeAll(async () => {
    bomb = await largePng(15_000, 15_000);
    tooLarge = await largePng(8_000, 6_000);
  }, stallLimit(120_000));

  it.each([
    ['a 15000 × 15000 PNG of some 650 KB (a decompression bomb)', () => bomb, 15_000, 15_000],
    ['an 8000 × 6000 PNG (48 megapixels)', () => tooLarge, 8_000, 6_000],
  ])(
    'when the admin uploads %s as the background, then 400 naming its size and the limit, and nothing is kept',
    async (_case, bytes, width, height) => {
      expect(bytes().length).toBeLessThan(1_000_000);
      const filesBefore = await storedFiles();
      const before = (await admin.get('/api/background/info')).body.data;
      expectError(
        await uploadImage(admin, 'background', {
          bytes: bytes(),
          name: 'huge.png',
          type: 'image/png',
        }),
        400,
        'VALIDATION_ERROR',
        `The image is too large: ${width} × ${height} pixels. At most 40 megapixels are accepted.`,
      );
      expect(await storedFiles()).toEqual(filesBefore);
      expect((await admin.get('/api/background/info')).body.data).toEqual(before);
    },
  );

  it('when the admin asks in Dutch, then the refusal is in Dutch', async () => {
    const response = await uploadImage(
      admin,
      'logo',
      { bytes: tooLarge, name: 'groot.png', type: 'image/png' },
      { headers: { 'Accept-Language': 'nl' } },
    );
    expectError(
      response,
      400,
      'VALIDATION_ERROR',
      'De afbeelding is te groot: 8000 × 6000 pixels. Er worden hoogstens 40 megapixels geaccepteerd.',
    );
  });

  it('when a PNG has a sound header but pixels that cannot be decoded, then 400 saying it could not be read, and nothing is kept', async () => {
    const filesBefore = await storedFiles();
    expectError(
      await uploadImage(admin, 'logo', {
        bytes: brokenPng(),
        name: 'broken.png',
        type: 'image/png',
      }),
      400,
      'VALIDATION_ERROR',
      'The image could not be read. Please select a valid JPEG, PNG, GIF or WebP file.',
    );
    expect(await storedFiles()).toEqual(filesBefore);
  });
});

describe('the logo', () => {
  it('when a 900 × 900 logo is uploaded, then it stays square: 40 px in the top bar and 64 px on the sign-in page, at 1× and 2×, in WebP and PNG', async () => {
    const response = await uploadImage(
      admin,
      'logo',
      pngFile('Logo.png', { width: 900, height: 900, rgb: [200, 30, 30] }),
    );
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    const page = (await anonymous.get('/login')).body as string;
    const picture = /<picture>([\s\S]*?)<\/picture>/.exec(page)?.[1] ?? '';
    expect(picture).toMatch(
      /<source type="image\/webp" srcset="\/api\/logo\/image\/64\.webp\?v=\d+ 1x, \/api\/logo\/image\/128\.webp\?v=\d+ 2x"/,
    );
    expect(picture).toMatch(/src="\/api\/logo\/image\/64\.png\?v=\d+"/);
    expect(picture).toMatch(/width="64" height="64"/);
    const dashboard = (await admin.get('/dashboard')).body as string;
    expect(dashboard).toMatch(
      /srcset="\/api\/logo\/image\/40\.webp\?v=\d+ 1x, \/api\/logo\/image\/80\.webp\?v=\d+ 2x"/,
    );
    expect(dashboard).toMatch(/width="40" height="40"/);
    expect(page).not.toContain(response.body.data.originalPath);
    const largest = await fetchImage(
      anonymous,
      /src="(\/api\/logo\/image\/64\.png[^"]+)"/.exec(page)![1]!.replace('/64.png', '/128.png'),
    );
    expect((await sharp(largest.bytes).metadata()).width).toBe(128);
  });

  it('when a 400 × 120 wordmark is uploaded, then it keeps its proportions: 133 × 40 in the top bar, 213 × 64 on the sign-in page', async () => {
    const response = await uploadImage(
      admin,
      'logo',
      pngFile('wordmark.png', { width: 400, height: 120, rgb: [20, 90, 200] }),
    );
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    const signIn =
      /<picture>([\s\S]*?)<\/picture>/.exec((await anonymous.get('/login')).body as string)?.[1] ??
      '';
    expect(signIn).toMatch(/width="213" height="64"/);
    const topBar =
      /<picture>([\s\S]*?)<\/picture>/.exec((await admin.get('/dashboard')).body as string)?.[1] ??
      '';
    expect(topBar).toMatch(/width="133" height="40"/);
    const shown = await fetchImage(
      anonymous,
      /src="(\/api\/logo\/image\/[^"]+)"/.exec(topBar)![1]!,
    );
    expect(await sharp(shown.bytes).metadata()).toMatchObject({ width: 133, height: 40 });
  });

  it('when an animated GIF is uploaded, then its variants still move: an animated WebP and GIF', async () => {
    const response = await uploadImage(admin, 'logo', {
      bytes: await animatedGif(),
      name: 'spinner.gif',
      type: 'image/gif',
    });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    const page = (await anonymous.get('/login')).body as string;
    const gif = /src="(\/api\/logo\/image\/\d+\.gif[^"]+)"/.exec(page)?.[1];
    expect(gif).toBeDefined();
    for (const url of [gif!, gif!.replace('.gif', '.webp')]) {
      expect(
        (await sharp((await fetchImage(anonymous, url)).bytes, { animated: true }).metadata())
          .pages,
        url,
      ).toBe(2);
    }
  });
});

describe('an image uploaded before variants were made', () => {
  it(
    'when the portal starts, then it makes the variants once, and pages send them',
    async () => {
      // Wide enough for every width pages are sent, and no larger: each of the two times its twelve
      // variants are made takes a third of what the camera photo's take.
      const wide = await cameraPhoto({ width: 2000, height: 1000 });
      const filesBefore = await storedFiles();
      const response = await uploadImage(admin, 'background', {
        bytes: wide,
        name: 'old.jpg',
        type: 'image/jpeg',
      });
      expect(response.status).toBe(200);
      // As an older portal left it: the upload alone, no variants recorded.
      await writeDatabase(
        portal,
        "UPDATE branding_images SET variants = NULL WHERE kind = 'background'",
      );
      const original = response.body.data.originalPath.split('?')[0];
      // The new upload and its twelve variants came; the photo before it and its variants went.
      const added = (await storedFiles()).filter((file) => !filesBefore.includes(file));
      expect(added.filter((file) => /^[0-9a-f]{32}-\d+\.(avif|webp|jpg)$/.test(file))).toHaveLength(
        12,
      );

      await portal.stop({ keepDir: true });
      portal = await startInProcessPortal(
        { LOGIN_MAX_ATTEMPTS: '1000' },
        { background: false, dir: portal.dir },
      );
      expect(portal.output()).toContain(
        "Made the background's 12 sizes for screens from the image uploaded before.",
      );
      anonymous = new ApiClient(portal);
      const urls = backgroundUrlsOf((await anonymous.get('/login')).body);
      expect(urls).toHaveLength(12);
      expect(urls.every((url) => !url.startsWith(`${original}?`))).toBe(true);
      expect((await fetchImage(anonymous, urls[0]!)).status).toBe(200);

      await portal.stop({ keepDir: true });
      portal = await startInProcessPortal(
        { LOGIN_MAX_ATTEMPTS: '1000' },
        { background: false, dir: portal.dir },
      );
      expect(portal.output()).not.toContain('sizes for screens');
      admin = await signedInAdmin(portal);
    },
    stallLimit(120_000),
  );
});
