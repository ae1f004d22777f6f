/**
 * A receipt's photos and documents, as the provider keeps them (docs/provider-api.md §2).
 *
 * The list is mirrored per receipt, but not by the sync: asking for every receipt's list on every pass
 * would multiply the provider's calls by the receipts. It is fetched when someone opens the receipt and
 * the stored list is not current: never fetched, fetched for an older version of the receipt (files come
 * with changes: a package arrives, the receipt is delivered), or older than ATTACHMENT_LIST_MAX_AGE_MS
 * (a file added without the receipt changing shows within that). When the provider cannot be asked, or
 * has not answered within LIST_WAIT_MS, the stored list is shown and said to be stale; only a
 * receipt never listed has nothing to show. A receipt opened by many at once is asked for once (in each
 * process).
 *
 * A file's bytes are fetched on its first view, at most ATTACHMENT_MAX_BYTES, and kept in
 * UPLOADS_DIR/attachments under a name the server chooses, with a photo's previews (a thumbnail of at
 * most 15 KB and a larger view, both WebP) made beside it once. Later views never reach the provider,
 * so what was viewed once still shows while it is down. Concurrent first views of a file fetch it once
 * in this process; two processes may both fetch it, and the first to record its file wins.
 *
 * An attachment keeps its id for as long as the provider lists it unchanged; one whose size, type or
 * time changes is another attachment, with a new id. So the bytes under an id never change, and a
 * browser may keep them.
 */
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, open, rename, rm, stat, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileTypeFromFile } from 'file-type';
import { Op, QueryTypes, UniqueConstraintError } from 'sequelize';
import { m } from '~/paraglide/messages.js';
import { LARGE_PREVIEW, THUMBNAIL } from '~/shared/attachment-view';
import type {
  AttachmentListMeta,
  AttachmentPreviewSize,
  AttachmentSummary,
} from '~/shared/attachments';
import type { PublicUser } from '~/shared/validation';
import type { AfterAnswer } from '../../after-answer';
import type { Clock } from '../../clock';
import type { Config } from '../../config';
import type { ReceiptAttachment } from '../../db/models';
import { AppError } from '../../errors';
import {
  ImageTooLargeError,
  ImageUnreadableError,
  makeWebpPreview,
  type ImagePreview,
} from '../../images/variants';
import type { Logger } from '../../logger';
import {
  AttachmentTooLargeError,
  ProviderError,
  type ProviderAttachment,
  type ProviderClient,
} from '../../provider/contract';
import { KeyedSingleFlight } from '../../single-flight';
import { withinTime } from '../../time-limit';
import { requireMirror, visibleConsigneeIds, type ScopeDeps, type LastSyncTime } from '../receipts';

/** A stored list this old is fetched again when its receipt is opened, changed or not. */
export const ATTACHMENT_LIST_MAX_AGE_MS = 10 * 60_000;
/** More than a phone's photo or a scanned invoice ever is; more is refused, not stored. */
export const ATTACHMENT_MAX_BYTES = 20 * 1024 * 1024;
/**
 * How long a view waits for the provider's list of a receipt's attachments before it answers without
 * it (with the list it had, or "cannot be loaded now"): a provider that hangs would otherwise hold the
 * receipt's page for the provider's 30 s time limit. A slow one still gets twice what the sandbox takes
 * to list a receipt's photos on a busy 2-core machine (5 s). The fetch goes on, and a later view finds
 * its list.
 */
const LIST_WAIT_MS = 10_000;
/** Where the files are kept: a folder of UPLOADS_DIR, beside the branding's. */
const ATTACHMENTS_FOLDER = 'attachments';
const PROVIDER_RETRY_SECONDS = 60;
/** Receipts whose attachments housekeeping removes in one go. */
const PURGE_CHUNK = 500;
/** Types a browser shows inline as a picture and never runs; anything else is a download. */
const INLINE_TYPES: ReadonlySet<string> = new Set([
  'image/jpeg',
  'image/png',
  'image/webp',
  'image/gif',
  'image/avif',
]);
/** A photo's previews as recorded: none made ({}) when its bytes are no image sharp can read. */
type Previews = Partial<Record<AttachmentPreviewSize, ImagePreview>>;

export type AttachmentSize = 'original' | AttachmentPreviewSize;

/** The fetches under way in this process, shared by whoever asks meanwhile: lists by receipt, files by attachment. */
export class AttachmentFetches {
  readonly lists = new KeyedSingleFlight<number, void>();
  readonly files = new KeyedSingleFlight<number, ReceiptAttachment>();

  /** `listWaitMs`: how long a view waits for a list (LIST_WAIT_MS unless a test that waits for it sets less). */
  constructor(readonly listWaitMs = LIST_WAIT_MS) {}
}

export interface AttachmentDeps extends ScopeDeps {
  clock: Clock;
  lastSync: LastSyncTime;
  provider: Pick<ProviderClient, 'listAttachments' | 'downloadAttachment'>;
  config: Pick<Config, 'uploadsDir' | 'provider'>;
  log: Logger;
  attachmentFetches: AttachmentFetches;
  /** A list still coming when the view answers is awaited there (the portal's stop waits for it). */
  afterAnswer: Pick<AfterAnswer, 'run'>;
}

/** A file to send: its bytes, what they are, and how a browser should take them. */
export interface AttachmentFile {
  body: ReadableStream<Uint8Array>;
  contentType: string;
  size: number;
  /** The name to show or save it under. */
  fileName: string;
  /** Shown in the page (an image), or saved (everything else). */
  inline: boolean;
  /** Names these exact bytes: they never change under the attachment's URL. */
  etag: string;
}

/**
 * Whether a stored list may be shown without asking the provider: fetched for this version of the
 * receipt, and lately.
 */
export function isAttachmentListCurrent(
  list: { receiptVersion: Date | string; checkedAt: Date | string } | null,
  receiptVersion: Date,
  now: number,
): boolean {
  if (!list) return false;
  return (
    new Date(list.receiptVersion).getTime() >= receiptVersion.getTime() &&
    now - new Date(list.checkedAt).getTime() < ATTACHMENT_LIST_MAX_AGE_MS
  );
}

/** Whether the provider still lists the same file under the stored attachment's id. */
export function isSameFile(
  row: Pick<ReceiptAttachment, 'size' | 'contentType' | 'providerCreatedAt'>,
  listed: Pick<ProviderAttachment, 'size' | 'contentType' | 'createdAt'>,
): boolean {
  const storedTime =
    row.providerCreatedAt === null ? null : new Date(row.providerCreatedAt).getTime();
  const listedTime = listed.createdAt === null ? null : Date.parse(listed.createdAt);
  return (
    Number(row.size) === listed.size &&
    row.contentType === listed.contentType &&
    storedTime === listedTime
  );
}

const previewsOf = (row: Pick<ReceiptAttachment, 'previews'>): Previews | null =>
  row.previews === null ? null : (JSON.parse(row.previews) as Previews);

/** A photo has previews once made; before its first view, when it says it is an image. */
function hasPreviews(row: Pick<ReceiptAttachment, 'kind' | 'contentType' | 'previews'>): boolean {
  if (row.kind !== 'photo') return false;
  const previews = previewsOf(row);
  return previews === null
    ? row.contentType.startsWith('image/')
    : previews.thumb !== undefined && previews.large !== undefined;
}

function summaryOf(row: ReceiptAttachment): AttachmentSummary {
  const url = `/api/attachments/${row.id}`;
  const previewed = hasPreviews(row);
  return {
    id: row.id,
    kind: row.kind,
    fileName: row.fileName,
    contentType: row.contentType,
    size: Number(row.size),
    url,
    thumbnailUrl: previewed ? `${url}?size=thumb` : null,
    largeUrl: previewed ? `${url}?size=large` : null,
  };
}

const folderOf = ({ config }: Pick<AttachmentDeps, 'config'>) =>
  path.join(config.uploadsDir, ATTACHMENTS_FOLDER);

/** The stored files of these attachments: each one's bytes and its previews. */
function storedFilesOf(
  rows: ReadonlyArray<Pick<ReceiptAttachment, 'storedName' | 'previews'>>,
): string[] {
  return rows.flatMap((row) => [
    ...(row.storedName ? [row.storedName] : []),
    ...Object.values(previewsOf(row) ?? {}).map((preview) => preview.fileName),
  ]);
}

async function removeFiles(
  deps: Pick<AttachmentDeps, 'config'>,
  fileNames: readonly string[],
): Promise<void> {
  await Promise.all(
    fileNames.map((fileName) => rm(path.join(folderOf(deps), fileName), { force: true })),
  );
}

/** The receipt, when it is in the user's scope (someone else's is no different from none). */
async function receiptInScope(
  { db, assignmentCache }: ScopeDeps,
  user: PublicUser,
  receiptId: number,
): Promise<{ providerUpdatedAt: Date } | null> {
  const consigneeIds = await visibleConsigneeIds({ db, assignmentCache }, user);
  if (consigneeIds?.length === 0) return null;
  return db.models.ReceiptRecord.findOne({
    attributes: ['providerUpdatedAt'],
    where: {
      id: receiptId,
      ...(consigneeIds !== null && { consigneeId: { [Op.in]: consigneeIds } }),
    },
    raw: true,
  });
}

function providerUnavailable(error: ProviderError, message: string): AppError {
  if (error instanceof AttachmentTooLargeError)
    return new AppError('EXTERNAL_API_ERROR', error.message, { status: 502 });
  return new AppError('EXTERNAL_API_ERROR', message, { retryAfter: PROVIDER_RETRY_SECONDS });
}

/**
 * Stores the provider's list for the receipt: files listed before keep their rows (and fetched bytes),
 * new ones are added, and the rows of those no longer listed, or changed, go with their files.
 */
async function refreshAttachmentList(
  deps: AttachmentDeps,
  receiptId: number,
  receiptVersion: Date,
): Promise<void> {
  const { db, clock } = deps;
  const { ReceiptAttachment, ReceiptAttachmentList } = db.models;
  const listed = new Map<string, ProviderAttachment>();
  // A provider that lists a file twice: its first place counts.
  for (const attachment of (await deps.provider.listAttachments(receiptId)) ?? [])
    if (!listed.has(attachment.id)) listed.set(attachment.id, attachment);
  const gone: ReceiptAttachment[] = [];
  try {
    await db.sequelize.transaction(async (transaction) => {
      const stored = new Map(
        (await ReceiptAttachment.findAll({ where: { receiptId }, transaction })).map((row) => [
          row.providerId,
          row,
        ]),
      );
      for (const [position, attachment] of [...listed.values()].entries()) {
        const row = stored.get(attachment.id);
        stored.delete(attachment.id);
        if (row && isSameFile(row, attachment)) {
          // Saved only when something differs.
          await row
            .set({ position, kind: attachment.kind, fileName: attachment.fileName })
            .save({ transaction });
          continue;
        }
        // A changed file is another attachment: its old row goes first (the provider's id is unique per receipt).
        if (row) {
          await row.destroy({ transaction });
          gone.push(row);
        }
        await ReceiptAttachment.create(
          {
            receiptId,
            providerId: attachment.id,
            position,
            kind: attachment.kind,
            fileName: attachment.fileName,
            contentType: attachment.contentType,
            size: attachment.size,
            providerCreatedAt:
              attachment.createdAt === null ? null : new Date(attachment.createdAt),
          },
          { transaction },
        );
      }
      for (const row of stored.values()) {
        await row.destroy({ transaction });
        gone.push(row);
      }
      await ReceiptAttachmentList.upsert(
        { receiptId, receiptVersion, checkedAt: new Date(clock.now()) },
        { transaction },
      );
    });
  } catch (error) {
    // Another process stored the list meanwhile: that one stands.
    if (error instanceof UniqueConstraintError) return;
    throw error;
  }
  await removeFiles(deps, storedFilesOf(gone));
}

/**
 * The receipt's photos and documents in the provider's order, fetched from the provider first when the
 * stored list is not current. Someone else's receipt is a 404; a provider that cannot be asked leaves
 * the stored list (`stale`), or a 503 when there is none.
 */
export async function listReceiptAttachments(
  deps: AttachmentDeps,
  user: PublicUser,
  receiptId: number,
): Promise<{ attachments: AttachmentSummary[]; meta: AttachmentListMeta }> {
  await requireMirror(deps);
  const receipt = await receiptInScope(deps, user, receiptId);
  if (!receipt) throw new AppError('NOT_FOUND', m.validation_receipt_not_found());
  // PROVIDER=file: exports carry no photos or documents, and there is no provider to ask.
  if (deps.config.provider === 'file')
    return {
      attachments: [],
      meta: { checkedAt: new Date(deps.clock.now()).toISOString(), stale: false },
    };
  const { ReceiptAttachment, ReceiptAttachmentList } = deps.db.models;
  const receiptVersion = new Date(receipt.providerUpdatedAt);
  let list = await ReceiptAttachmentList.findByPk(receiptId, { raw: true });
  let stale = false;
  if (!isAttachmentListCurrent(list, receiptVersion, deps.clock.now())) {
    const refresh = deps.attachmentFetches.lists.run(receiptId, () =>
      refreshAttachmentList(deps, receiptId, receiptVersion),
    );
    const listFailed = (error: Error) =>
      deps.log.warn(
        { component: 'attachments', receiptId, error: error.message },
        'The provider could not list the receipt’s attachments',
      );
    const { listWaitMs } = deps.attachmentFetches;
    const slow = new ProviderError(
      `The provider did not list the receipt's attachments within ${listWaitMs / 1000} s`,
      'unreachable',
    );
    try {
      await withinTime(refresh, listWaitMs, slow);
      list = await ReceiptAttachmentList.findByPk(receiptId, { raw: true });
    } catch (error) {
      if (!(error instanceof ProviderError)) throw error;
      listFailed(error);
      if (error === slow) deps.afterAnswer.run(() => refresh.catch(listFailed));
      if (!list) throw providerUnavailable(error, m.attachment_provider_down());
      stale = true;
    }
  }
  const rows = await ReceiptAttachment.findAll({
    where: { receiptId },
    order: [['position', 'ASC']],
  });
  return {
    attachments: rows.map(summaryOf),
    meta: { checkedAt: new Date(list!.checkedAt).toISOString(), stale },
  };
}

/** The attachment, when its receipt is in the user's scope. */
async function attachmentInScope(
  deps: ScopeDeps,
  user: PublicUser,
  id: number,
): Promise<ReceiptAttachment> {
  const row = await deps.db.models.ReceiptAttachment.findByPk(id);
  if (!row || !(await receiptInScope(deps, user, row.receiptId)))
    throw new AppError('NOT_FOUND', m.attachment_not_found());
  return row;
}

/**
 * A photo's previews beside its file; none when its bytes are no image sharp reads, or too large a
 * one (a decompression bomb).
 */
async function makePreviews(
  deps: AttachmentDeps,
  row: ReceiptAttachment,
  storedName: string,
  stem: string,
): Promise<Previews> {
  const folder = folderOf(deps);
  const source = path.join(folder, storedName);
  try {
    const thumb = await makeWebpPreview(source, folder, `${stem}-thumb.webp`, {
      box: THUMBNAIL,
      maxBytes: THUMBNAIL.maxBytes,
    });
    try {
      return {
        thumb,
        large: await makeWebpPreview(source, folder, `${stem}-large.webp`, { box: LARGE_PREVIEW }),
      };
    } catch (error) {
      await removeFiles(deps, [thumb.fileName]);
      throw error;
    }
  } catch (error) {
    if (!(error instanceof ImageUnreadableError || error instanceof ImageTooLargeError))
      throw error;
    deps.log.warn(
      { component: 'attachments', attachmentId: row.id, error: error.message },
      'A photo could not be made into previews; it is offered as a download',
    );
    return {};
  }
}

/**
 * Fetches the attachment's bytes into UPLOADS_DIR, bounded, and records them, with a photo's previews.
 * A row fetched meanwhile (by this process's flight before, or another process) is answered as it is.
 */
async function fetchAttachment(deps: AttachmentDeps, id: number): Promise<ReceiptAttachment> {
  const { ReceiptAttachment } = deps.db.models;
  const row = await ReceiptAttachment.findByPk(id);
  if (!row) throw new AppError('NOT_FOUND', m.attachment_not_found());
  if (row.storedName) return row;
  // Listed as larger than the portal takes: refused without fetching it (the bound below holds for a
  // provider whose list says less than it sends).
  if (Number(row.size) > ATTACHMENT_MAX_BYTES)
    throw providerUnavailable(
      new AttachmentTooLargeError(ATTACHMENT_MAX_BYTES),
      m.attachment_not_fetched(),
    );
  let download;
  try {
    download = await deps.provider.downloadAttachment(row.providerId, ATTACHMENT_MAX_BYTES);
  } catch (error) {
    if (error instanceof ProviderError)
      throw providerUnavailable(error, m.attachment_not_fetched());
    throw error;
  }
  if (!download) throw new AppError('NOT_FOUND', m.attachment_gone());

  const folder = folderOf(deps);
  await mkdir(folder, { recursive: true });
  const stem = randomBytes(16).toString('hex');
  const incoming = path.join(folder, `.incoming-${stem}`);
  try {
    await pipeline(Readable.from(download.chunks), createWriteStream(incoming, { flags: 'wx' }));
  } catch (error) {
    await rm(incoming, { force: true });
    if (error instanceof ProviderError)
      throw providerUnavailable(error, m.attachment_not_fetched());
    throw error;
  }
  // Its bytes say what it is, whatever the provider declared.
  const detected = await fileTypeFromFile(incoming);
  const storedName = `${stem}.${detected?.ext ?? 'bin'}`;
  await rename(incoming, path.join(folder, storedName));
  let files = [storedName];
  try {
    const previews = row.kind === 'photo' ? await makePreviews(deps, row, storedName, stem) : null;
    files = storedFilesOf([{ storedName, previews: previews && JSON.stringify(previews) }]);
    const [recorded] = await ReceiptAttachment.update(
      {
        storedName,
        storedType: detected?.mime ?? 'application/octet-stream',
        storedSize: (await stat(path.join(folder, storedName))).size,
        previews: previews && JSON.stringify(previews),
        fetchedAt: new Date(deps.clock.now()),
      },
      { where: { id, storedName: null } },
    );
    // Recorded meanwhile by another process: its files are the attachment's, these belong to nothing.
    if (recorded === 0) await removeFiles(deps, files);
  } catch (error) {
    await removeFiles(deps, files);
    throw error;
  }
  const stored = await ReceiptAttachment.findByPk(id);
  if (!stored?.storedName) throw new AppError('NOT_FOUND', m.attachment_not_found());
  return stored;
}

/** The file the size names: the bytes as fetched, or a preview of a photo. */
function choose(
  row: ReceiptAttachment,
  size: AttachmentSize,
): Omit<AttachmentFile, 'body' | 'size'> & { storedName: string } {
  const stem = row.storedName!.replace(/\.[a-z0-9]+$/, '');
  if (size === 'original') {
    const contentType = row.storedType ?? 'application/octet-stream';
    // Shown in the page only when it is a picture whose size was checked (its previews were made): a
    // decompression bomb, or an image under another kind, is saved rather than decoded.
    const inline = INLINE_TYPES.has(contentType) && previewsOf(row)?.thumb !== undefined;
    return {
      storedName: row.storedName!,
      contentType,
      fileName: row.fileName,
      inline,
      etag: `"${stem}"`,
    };
  }
  const preview = previewsOf(row)?.[size];
  if (!preview) throw new AppError('NOT_FOUND', m.attachment_no_preview());
  const fileName = `${row.fileName.replace(/\.[A-Za-z0-9]{1,5}$/, '')}-${size}.webp`;
  return {
    storedName: preview.fileName,
    contentType: 'image/webp',
    fileName,
    inline: true,
    etag: `"${stem}-${size}"`,
  };
}

/**
 * An attachment's bytes (or a photo's preview) for the user: fetched from the provider on the first
 * view, from UPLOADS_DIR after. Another customer's attachment is a 404, as is a preview of a document.
 */
export async function openAttachment(
  deps: AttachmentDeps,
  user: PublicUser,
  id: number,
  size: AttachmentSize,
): Promise<AttachmentFile> {
  let row = await attachmentInScope(deps, user, id);
  if (size !== 'original' && !hasPreviews(row))
    throw new AppError('NOT_FOUND', m.attachment_no_preview());
  for (let attempt = 0; ; attempt++) {
    if (!row.storedName)
      row = await deps.attachmentFetches.files.run(id, () => fetchAttachment(deps, id));
    const chosen = choose(row, size);
    let handle: FileHandle;
    try {
      // An open file stays readable even if a list refresh removes it meanwhile.
      handle = await open(path.join(folderOf(deps), chosen.storedName));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || attempt > 0) throw error;
      // Its file is gone (a restored backup without the uploads, say): fetched again, as on a first view.
      deps.log.warn(
        { component: 'attachments', attachmentId: id },
        'An attachment’s stored file is missing; it is fetched again',
      );
      await deps.db.models.ReceiptAttachment.update(
        { storedName: null, storedType: null, storedSize: null, previews: null, fetchedAt: null },
        { where: { id, storedName: row.storedName } },
      );
      row = await attachmentInScope(deps, user, id);
      continue;
    }
    let bytes: number;
    try {
      ({ size: bytes } = await handle.stat());
    } catch (error) {
      await handle.close();
      throw error;
    }
    const { storedName: _stored, ...file } = chosen;
    return {
      ...file,
      size: bytes,
      body: Readable.toWeb(handle.createReadStream()) as ReadableStream<Uint8Array>,
    };
  }
}

/** The attachments (rows and files) of receipts the mirror no longer has: housekeeping. */
export async function purgeOrphanAttachments(
  deps: Pick<AttachmentDeps, 'db' | 'config'>,
): Promise<void> {
  const { db } = deps;
  const { ReceiptAttachment, ReceiptAttachmentList } = db.models;
  const gone = (
    await db.sequelize.query<{ receiptId: number }>(
      `SELECT l."receiptId" FROM "receipt_attachment_lists" l
         LEFT JOIN "receipts" r ON r."id" = l."receiptId" WHERE r."id" IS NULL`,
      { type: QueryTypes.SELECT },
    )
  ).map((row) => Number(row.receiptId));
  for (let start = 0; start < gone.length; start += PURGE_CHUNK) {
    const receiptIds = gone.slice(start, start + PURGE_CHUNK);
    // Read in the transaction that deletes, and locked: a first view recording its file meanwhile either
    // commits first (and its file is read here) or finds the row gone and removes its file itself.
    const rows = await db.sequelize.transaction(async (transaction) => {
      const stored = await ReceiptAttachment.findAll({
        attributes: ['storedName', 'previews'],
        where: { receiptId: { [Op.in]: receiptIds } },
        lock: transaction.LOCK.UPDATE,
        raw: true,
        transaction,
      });
      await ReceiptAttachment.destroy({
        where: { receiptId: { [Op.in]: receiptIds } },
        transaction,
      });
      await ReceiptAttachmentList.destroy({
        where: { receiptId: { [Op.in]: receiptIds } },
        transaction,
      });
      return stored;
    });
    await removeFiles(deps, storedFilesOf(rows));
  }
}
