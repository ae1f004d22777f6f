/**
 * The sandbox's attachments: a camera-sized JPEG photo of each package and a PDF proof of delivery for
 * a delivered receipt, the same bytes every time they are made, listed with their true sizes, under ids
 * that name nothing else.
 */
import { PDFDocument } from 'pdf-lib';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import {
  attachmentIdOf,
  attachmentRefsOf,
  parseAttachmentId,
  SandboxAttachments,
} from '~/server/provider/sandbox/attachments';
import { isDelivered } from '~/server/provider/sandbox/generator';
import { SandboxStore } from '~/server/provider/sandbox/store';
import { stallLimit } from '../support/test-pace';

const NOW = new Date(2026, 10, 18, 14, 30).getTime();
const store = new SandboxStore(1, 300, NOW);
const records = Array.from({ length: 300 }, (_, index) => store.record(100_001 + index)!);
const delivered = records.find((record) => isDelivered(record) && record.packages >= 2)!;
const undelivered = records.find((record) => !isDelivered(record) && record.packages >= 1)!;
const loose = records.find((record) => record.packages === 0 && !isDelivered(record))!;

describe('sandbox attachment ids', () => {
  it('when an id is made and read back, then it names the same attachment; anything else names none', () => {
    for (const ref of [
      { receiptId: 100_321, kind: 'photo', index: 0 } as const,
      { receiptId: 100_321, kind: 'pod' } as const,
    ]) {
      expect(parseAttachmentId(attachmentIdOf(ref))).toEqual(ref);
    }
    expect(attachmentIdOf({ receiptId: 100_321, kind: 'photo', index: 2 })).toBe('100321-photo-3');
    for (const id of [
      '',
      '100321',
      '100321-photo-0',
      '100321-photo-',
      '100321-pod-1',
      'x-pod',
      '../100321-pod',
      '1234567890-pod',
    ]) {
      expect(parseAttachmentId(id), id).toBeNull();
    }
  });

  it("when a receipt's attachments are named, then a photo per package, and a proof of delivery only once delivered", () => {
    expect(attachmentRefsOf(delivered).map(attachmentIdOf)).toEqual([
      ...Array.from(
        { length: delivered.packages },
        (_, index) => `${delivered.id}-photo-${index + 1}`,
      ),
      `${delivered.id}-pod`,
    ]);
    expect(attachmentRefsOf(undelivered).map((ref) => ref.kind)).toEqual(
      Array.from({ length: undelivered.packages }, () => 'photo'),
    );
    expect(attachmentRefsOf(loose)).toEqual([]);
  });
});

// Each photo takes a tenth of a second or so to make, several on a busy machine.
describe('sandbox attachment files', { timeout: stallLimit(60_000) }, () => {
  it('when a package photo is made, then it is a 1600 × 1200 camera JPEG of a few hundred KB, the same bytes each time', async () => {
    const id = `${delivered.id}-photo-1`;
    const first = await new SandboxAttachments(1).file(store, id);
    const again = await new SandboxAttachments(1).file(store, id);
    expect(first).toMatchObject({
      kind: 'photo',
      contentType: 'image/jpeg',
      fileName: `WR-${delivered.id}-package-1.jpg`,
    });
    expect(Buffer.compare(Buffer.from(first!.bytes), Buffer.from(again!.bytes))).toBe(0);
    const metadata = await sharp(first!.bytes).metadata();
    expect(metadata).toMatchObject({ format: 'jpeg', width: 1600, height: 1200 });
    expect(metadata.exif).toBeDefined();
    expect(first!.bytes.byteLength).toBeGreaterThan(150_000);
    expect(first!.bytes.byteLength).toBeLessThan(2_000_000);
    expect(first!.createdAt.getTime()).toBeGreaterThan(delivered.receivedAt);
  });

  it('when another package or seed is photographed, then the photo differs', async () => {
    const attachments = new SandboxAttachments(1);
    const first = await attachments.file(store, `${delivered.id}-photo-1`);
    const second = await attachments.file(store, `${delivered.id}-photo-2`);
    const otherSeed = await new SandboxAttachments(2).file(store, `${delivered.id}-photo-1`);
    expect(Buffer.compare(Buffer.from(first!.bytes), Buffer.from(second!.bytes))).not.toBe(0);
    expect(Buffer.compare(Buffer.from(first!.bytes), Buffer.from(otherSeed!.bytes))).not.toBe(0);
  });

  it('when a proof of delivery is made, then it is a one-page PDF dated at the delivery, the same bytes each time', async () => {
    const id = `${delivered.id}-pod`;
    const first = await new SandboxAttachments(1).file(store, id);
    const again = await new SandboxAttachments(1).file(store, id);
    expect(first).toMatchObject({
      kind: 'pod',
      contentType: 'application/pdf',
      fileName: `WR-${delivered.id}-proof-of-delivery.pdf`,
    });
    expect(Buffer.compare(Buffer.from(first!.bytes), Buffer.from(again!.bytes))).toBe(0);
    expect(Buffer.from(first!.bytes.subarray(0, 5)).toString('latin1')).toBe('%PDF-');
    const pdf = await PDFDocument.load(first!.bytes, { updateMetadata: false });
    expect(pdf.getPageCount()).toBe(1);
    expect(pdf.getTitle()).toBe(`Proof of delivery WR-${delivered.id}`);
    expect(pdf.getCreationDate()?.getTime()).toBe(Math.floor(delivered.updatedAt / 1000) * 1000);
    expect(first!.createdAt.getTime()).toBe(delivered.updatedAt);
  });

  it('when an id names no attachment of a receipt the sandbox has, then there is no file', async () => {
    const attachments = new SandboxAttachments(1);
    expect(await attachments.file(store, `${undelivered.id}-pod`)).toBeNull();
    expect(
      await attachments.file(store, `${undelivered.id}-photo-${undelivered.packages + 1}`),
    ).toBeNull();
    expect(await attachments.file(store, '999999-photo-1')).toBeNull();
    expect(await attachments.file(store, 'nonsense')).toBeNull();
  });

  it("when a receipt's attachments are listed, then each with its file's true size and time; an unknown receipt has no list", async () => {
    const attachments = new SandboxAttachments(1);
    const listed = await attachments.list(store, delivered.id);
    expect(listed).toHaveLength(delivered.packages + 1);
    for (const attachment of listed!) {
      const file = await attachments.file(store, attachment.id);
      expect(attachment).toEqual({
        id: attachment.id,
        kind: file!.kind,
        fileName: file!.fileName,
        contentType: file!.contentType,
        size: file!.bytes.byteLength,
        createdAt: file!.createdAt.toISOString(),
      });
    }
    // Made afresh, not from what the list kept: the same size.
    const photo = await new SandboxAttachments(1).file(store, listed![0]!.id);
    expect(photo!.bytes.byteLength).toBe(listed![0]!.size);
    expect(await attachments.list(store, loose.id)).toEqual([]);
    expect(await attachments.list(store, 999_999)).toBeNull();
  });
});
