/**
 * The sandbox's attachments (docs/provider-api.md §2): a photo of each of a receipt's packages, taken on
 * arrival at the warehouse, and a proof of delivery once the receipt is delivered. Nothing is stored:
 * an attachment's id names its receipt and what it is, and its file is made whenever it is asked for,
 * the same bytes every time. A list has to give each file's size, and a photo takes about a tenth of a
 * second to make, so the sizes of the files made are remembered (a number each), and the last few
 * files as well, for the downloads that follow a list.
 */
import { LRUCache } from 'lru-cache';
import type { AttachmentKind } from '~/shared/attachments';
import type { ProviderAttachment, ProviderReceipt } from '../contract';
import { ROUTES } from './catalog';
import { isDelivered, STREAM, type SandboxRecord } from './generator';
import { renderPackagePhoto, type PackagePhoto } from './photos';
import { mixSeed, Random } from './random';
import type { SandboxStore } from './store';

const MINUTE_MS = 60_000;
/** Sizes of files made: a few hundred KB of memory at most. */
const SIZES_KEPT = 20_000;
/** The last files made: a receipt's photos and its proof of delivery, a few times over. */
const RECENT_FILES_BYTES = 16 * 1024 * 1024;

export type AttachmentRef =
  { receiptId: number; kind: 'photo'; index: number } | { receiptId: number; kind: 'pod' };

const ATTACHMENT_ID = /^(\d{1,9})-(?:photo-(\d{1,2})|pod)$/;

export function attachmentIdOf(ref: AttachmentRef): string {
  return ref.kind === 'photo' ? `${ref.receiptId}-photo-${ref.index + 1}` : `${ref.receiptId}-pod`;
}

/** The attachment an id names, if it is one this sandbox could have made. */
export function parseAttachmentId(id: string): AttachmentRef | null {
  const match = ATTACHMENT_ID.exec(id);
  if (!match) return null;
  const receiptId = Number(match[1]);
  if (match[2] === undefined) return { receiptId, kind: 'pod' };
  const index = Number(match[2]) - 1;
  return index >= 0 ? { receiptId, kind: 'photo', index } : null;
}

/** What a receipt has: a photo of each package, and its proof of delivery once delivered. */
export function attachmentRefsOf(record: Readonly<SandboxRecord>): AttachmentRef[] {
  const photos = Array.from({ length: record.packages }, (_, index): AttachmentRef => ({
    receiptId: record.id,
    kind: 'photo',
    index,
  }));
  return isDelivered(record) ? [...photos, { receiptId: record.id, kind: 'pod' }] : photos;
}

export interface SandboxFile {
  kind: AttachmentKind;
  fileName: string;
  contentType: string;
  createdAt: Date;
  bytes: Uint8Array;
}

type Plan = Omit<SandboxFile, 'bytes'> & { render: () => Promise<Uint8Array> };

/**
 * What an attachment is, and how its file is made: the random numbers it takes follow from the seed
 * and the attachment alone.
 */
function planOf(
  seed: number,
  record: Readonly<SandboxRecord>,
  receipt: ProviderReceipt,
  ref: AttachmentRef,
): Plan {
  if (ref.kind === 'pod') {
    const deliveredAt = new Date(record.updatedAt);
    return {
      kind: 'pod',
      fileName: `${receipt.number}-proof-of-delivery.pdf`,
      contentType: 'application/pdf',
      createdAt: deliveredAt,
      // Loaded by the first proof of delivery asked for, not by every start: pdf-lib is a tenth of the
      // server's start-up CPU.
      render: async () =>
        (await import('./proof-of-delivery')).renderProofOfDelivery(
          receipt,
          deliveredAt,
          new Random(mixSeed(seed, STREAM.deliveries, record.id)),
        ),
    };
  }
  const random = new Random(mixSeed(seed, STREAM.photos, record.id, ref.index));
  const takenAt = new Date(
    record.receivedAt + (ref.index + 1) * Math.round(random.between(2, 9) * MINUTE_MS),
  );
  const photo: PackagePhoto = {
    receipt,
    commodity: receipt.commodities[ref.index]!,
    index: ref.index,
    count: receipt.commodities.length,
    region: ROUTES[record.route]!.region,
    takenAt,
  };
  return {
    kind: 'photo',
    fileName: `${receipt.number}-package-${ref.index + 1}.jpg`,
    contentType: 'image/jpeg',
    createdAt: takenAt,
    render: () => renderPackagePhoto(photo, random),
  };
}

export class SandboxAttachments {
  private readonly sizes = new LRUCache<string, number>({ max: SIZES_KEPT });
  private readonly recent = new LRUCache<string, SandboxFile>({
    maxSize: RECENT_FILES_BYTES,
    sizeCalculation: (file) => file.bytes.byteLength,
  });
  /** Files being made: a second request for one waits for it. */
  private readonly making = new Map<string, Promise<SandboxFile>>();

  constructor(private readonly seed: number) {}

  /** The receipt's attachments, or null when the sandbox has no such receipt. */
  async list(store: SandboxStore, receiptId: number): Promise<ProviderAttachment[] | null> {
    const record = store.record(receiptId);
    const receipt = store.receipt(receiptId);
    if (!record || !receipt) return null;
    const listed: ProviderAttachment[] = [];
    // One after another: a photo takes several MB while it is made.
    for (const ref of attachmentRefsOf(record)) {
      const id = attachmentIdOf(ref);
      const { kind, fileName, contentType, createdAt } = planOf(this.seed, record, receipt, ref);
      const size =
        this.sizes.get(id) ?? (await this.made(id, record, receipt, ref)).bytes.byteLength;
      listed.push({ id, kind, fileName, contentType, size, createdAt: createdAt.toISOString() });
    }
    return listed;
  }

  /** One attachment's file, or null when the id names none the sandbox has (now). */
  async file(store: SandboxStore, id: string): Promise<SandboxFile | null> {
    const ref = parseAttachmentId(id);
    const record = ref && store.record(ref.receiptId);
    const receipt = ref && store.receipt(ref.receiptId);
    if (
      !ref ||
      !record ||
      !receipt ||
      !attachmentRefsOf(record).some((known) => attachmentIdOf(known) === id)
    )
      return null;
    return this.made(id, record, receipt, ref);
  }

  private made(
    id: string,
    record: Readonly<SandboxRecord>,
    receipt: ProviderReceipt,
    ref: AttachmentRef,
  ): Promise<SandboxFile> {
    const kept = this.recent.get(id);
    if (kept) return Promise.resolve(kept);
    let making = this.making.get(id);
    if (!making) {
      const { render, ...described } = planOf(this.seed, record, receipt, ref);
      making = render()
        .then((bytes) => {
          const file = { ...described, bytes };
          this.sizes.set(id, bytes.byteLength);
          this.recent.set(id, file);
          return file;
        })
        .finally(() => this.making.delete(id));
      this.making.set(id, making);
    }
    return making;
  }
}
