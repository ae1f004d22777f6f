/**
 * The rules of receipts' attachments that need no portal: when a stored list is current, when the
 * provider lists the same file, how a download is named and cached, what the screens show, one fetch
 * per attachment at a time, and a thumbnail within its byte budget whatever the photo.
 */
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { matchesEtag } from '~/server/http/attachments';
import { contentDisposition } from '~/server/http/images';
import { ImageTooLargeError, makeWebpPreview } from '~/server/images/variants';
import {
  ATTACHMENT_LIST_MAX_AGE_MS,
  isAttachmentListCurrent,
  isSameFile,
} from '~/server/services/attachments/attachments';
import { KeyedSingleFlight } from '~/server/single-flight';
import { attachmentViews } from '~/shared/attachment-view';
import type { AttachmentSummary } from '~/shared/attachments';
import { largePng } from '../support/images';
import { readMessagesIn, restoreLocale } from '../support/messages-locale';

const version = new Date('2026-11-20T10:00:00.000Z');
const now = version.getTime() + 60_000;

describe('isAttachmentListCurrent', () => {
  it('when no list was stored, then it is fetched', () => {
    expect(isAttachmentListCurrent(null, version, now)).toBe(false);
  });

  it('when the list was fetched for this version of the receipt, lately, then it is shown as stored', () => {
    expect(
      isAttachmentListCurrent(
        { receiptVersion: version, checkedAt: new Date(now - 1000) },
        version,
        now,
      ),
    ).toBe(true);
    // As SQLite answers dates: text.
    expect(
      isAttachmentListCurrent(
        { receiptVersion: version.toISOString(), checkedAt: new Date(now - 1000).toISOString() },
        version,
        now,
      ),
    ).toBe(true);
  });

  it('when the receipt changed since the list was fetched, then it is fetched again, however recent', () => {
    expect(
      isAttachmentListCurrent(
        { receiptVersion: version, checkedAt: new Date(now) },
        new Date(version.getTime() + 1),
        now,
      ),
    ).toBe(false);
  });

  it('when the list is as old as the maximum age, then it is fetched again', () => {
    const list = {
      receiptVersion: version,
      checkedAt: new Date(now - ATTACHMENT_LIST_MAX_AGE_MS + 1),
    };
    expect(isAttachmentListCurrent(list, version, now)).toBe(true);
    expect(isAttachmentListCurrent(list, version, now + 1)).toBe(false);
  });
});

describe('isSameFile', () => {
  const row = {
    size: '581188',
    contentType: 'image/jpeg',
    providerCreatedAt: new Date('2026-11-18T15:24:00.000Z'),
  };
  const listed = { size: 581188, contentType: 'image/jpeg', createdAt: '2026-11-18T15:24:00.000Z' };

  it('when size, type and time are those stored (a BIGINT as PostgreSQL answers it: text), then it is the same file', () => {
    expect(isSameFile(row, listed)).toBe(true);
    expect(isSameFile({ ...row, providerCreatedAt: null }, { ...listed, createdAt: null })).toBe(
      true,
    );
  });

  it.each([
    ['size', { size: 581189 }],
    ['type', { contentType: 'image/png' }],
    ['time', { createdAt: '2026-11-18T15:25:00.000Z' }],
    ['time, none before', { createdAt: null }],
  ])('when its %s changed, then it is another file', (_what, change) => {
    expect(isSameFile(row, { ...listed, ...change })).toBe(false);
  });
});

describe('contentDisposition', () => {
  it('when the name is plain ASCII, then both forms carry it as it is', () => {
    expect(contentDisposition('WR-100321-proof-of-delivery.pdf')).toBe(
      `attachment; filename="WR-100321-proof-of-delivery.pdf"; filename*=UTF-8''WR-100321-proof-of-delivery.pdf`,
    );
    expect(contentDisposition('photo.jpg', 'inline')).toMatch(/^inline; filename="photo\.jpg"/);
  });

  it('when the name has quotes, backslashes, accents or the specials of filename*, then the ASCII form replaces them and the exact form encodes them', () => {
    expect(contentDisposition(`Coöperatie "O'Brien" (1)*\\.pdf`)).toBe(
      `attachment; filename="Co_peratie _O'Brien_ (1)*_.pdf"; filename*=UTF-8''Co%C3%B6peratie%20%22O%27Brien%22%20%281%29%2A%5C.pdf`,
    );
  });
});

describe('matchesEtag', () => {
  it('when If-None-Match names the ETag, weakly, among others, or as *, then the copy is current', () => {
    for (const header of ['"abc-thumb"', 'W/"abc-thumb"', '"other", "abc-thumb"', '*'])
      expect(matchesEtag(header, '"abc-thumb"'), header).toBe(true);
  });

  it('when it names another, or nothing, then the bytes are sent', () => {
    for (const header of [null, '', '"abc"', '"abc-large"'])
      expect(matchesEtag(header, '"abc-thumb"'), String(header)).toBe(false);
  });
});

describe('attachmentViews', () => {
  afterEach(restoreLocale);
  const summary = (
    id: number,
    kind: AttachmentSummary['kind'],
    previews: boolean,
    size = 1000,
  ): AttachmentSummary => ({
    id,
    kind,
    fileName: `file-${id}`,
    contentType: previews ? 'image/jpeg' : 'application/pdf',
    size,
    url: `/api/attachments/${id}`,
    thumbnailUrl: previews ? `/api/attachments/${id}?size=thumb` : null,
    largeUrl: previews ? `/api/attachments/${id}?size=large` : null,
  });

  it('when a receipt has photos and documents, then photos with previews are thumbnails numbered among themselves, the rest downloads', () => {
    const views = attachmentViews(
      [
        summary(1, 'photo', true),
        summary(2, 'photo', false, 5),
        summary(3, 'photo', true),
        summary(4, 'pod', false, 3277),
      ],
      'WR-1',
    );
    expect(views.photos.map((photo) => [photo.id, photo.alt])).toEqual([
      [1, 'Package photo 1 of 2, receipt WR-1'],
      [3, 'Package photo 2 of 2, receipt WR-1'],
    ]);
    expect(views.photos[0]).toMatchObject({
      thumbnailUrl: '/api/attachments/1?size=thumb',
      largeUrl: '/api/attachments/1?size=large',
      url: '/api/attachments/1',
    });
    expect(views.documents).toEqual([
      {
        id: 2,
        url: '/api/attachments/2',
        fileName: 'file-2',
        detail: 'Photo · 5 Bytes',
        downloadLabel: 'Download file-2',
      },
      {
        id: 4,
        url: '/api/attachments/4',
        fileName: 'file-4',
        detail: 'Proof of delivery · 3.20 KB',
        downloadLabel: 'Download file-4',
      },
    ]);
  });

  it('when the reader is Dutch, then the texts are Dutch', () => {
    readMessagesIn('nl');
    const views = attachmentViews(
      [summary(1, 'photo', true), summary(2, 'invoice', false, 2048)],
      'WR-1',
    );
    expect(views.photos[0]!.alt).toBe('Pakketfoto 1 van 1, ontvangstbewijs WR-1');
    expect(views.documents[0]).toMatchObject({
      detail: 'Factuur · 2,00 KB',
      downloadLabel: 'file-2 downloaden',
    });
  });
});

describe('KeyedSingleFlight', () => {
  it('when the same key is asked for while its work runs, then the work runs once and both get its outcome; another key runs apart', async () => {
    const flights = new KeyedSingleFlight<number, string>();
    let runs = 0;
    let finish!: () => void;
    const gate = new Promise<void>((resolve) => (finish = resolve));
    const work = (answer: string) => async () => {
      runs += 1;
      await gate;
      return answer;
    };
    const first = flights.run(1, work('one'));
    const second = flights.run(1, work('again'));
    const other = flights.run(2, work('two'));
    finish();
    expect(await Promise.all([first, second, other])).toEqual(['one', 'one', 'two']);
    expect(runs).toBe(2);
    expect(await flights.run(1, work('later'))).toBe('later');
  });

  it('when the work fails, then everyone waiting gets the failure and the next ask runs it anew', async () => {
    const flights = new KeyedSingleFlight<string, number>();
    const failing = Promise.all([
      flights.run('a', () => Promise.reject(new Error('down'))),
      flights.run('a', () => Promise.resolve(1)),
    ]);
    await expect(failing).rejects.toThrow('down');
    expect(await flights.run('a', () => Promise.resolve(2))).toBe(2);
  });
});

describe('makeWebpPreview', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'previews-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  /** Pure noise: the worst a camera photo can be for a small file. */
  async function noise(width: number, height: number): Promise<string> {
    const pixels = Buffer.alloc(width * height * 3);
    let seed = 11;
    for (let index = 0; index < pixels.length; index += 1)
      pixels[index] = (seed = (seed * 1_103_515_245 + 12_345) & 0x7fffffff) >> 23;
    const file = path.join(dir, `noise-${width}.png`);
    await sharp(pixels, { raw: { width, height, channels: 3 } })
      .png()
      .toFile(file);
    return file;
  }

  it('when a photo is noise, then its thumbnail still keeps within 15 KB, at a lower quality and, if need be, smaller', async () => {
    // Noise at the thumbnail's own size: nothing averages it away.
    const source = await noise(320, 240);
    const first = await sharp(source).webp({ quality: 72 }).toBuffer();
    expect(first.length).toBeGreaterThan(15 * 1024);
    const preview = await makeWebpPreview(source, dir, 'noise-thumb.webp', {
      box: { width: 320, height: 320 },
      maxBytes: 15 * 1024,
    });
    const written = await readFile(path.join(dir, 'noise-thumb.webp'));
    expect(preview.size).toBe(written.length);
    expect(written.length).toBeLessThanOrEqual(15 * 1024);
    expect(await sharp(written).metadata()).toMatchObject({
      format: 'webp',
      width: preview.width,
      height: preview.height,
    });
    expect(preview.width / preview.height).toBeCloseTo(4 / 3, 1);
  });

  it('when there is no byte budget, then it is the box size (never enlarged) at the first quality', async () => {
    const source = await noise(400, 300);
    const preview = await makeWebpPreview(source, dir, 'noise-large.webp', {
      box: { width: 1280, height: 1280 },
    });
    expect(preview).toMatchObject({ width: 400, height: 300 });
    expect((await stat(path.join(dir, 'noise-large.webp'))).size).toBe(preview.size);
  });

  it('when the image would decode to more than 40 megapixels, then it is refused from its header and nothing is written', async () => {
    const bomb = path.join(dir, 'bomb.png');
    await sharp(await largePng(8_000, 6_000)).toFile(bomb);
    await expect(
      makeWebpPreview(bomb, dir, 'bomb-thumb.webp', { box: { width: 320, height: 320 } }),
    ).rejects.toBeInstanceOf(ImageTooLargeError);
    await expect(stat(path.join(dir, 'bomb-thumb.webp'))).rejects.toThrow();
  });
});
