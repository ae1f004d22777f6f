/**
 * Share links: a customer's read-only link to one receipt's status, `/t/<token>`, opened by anyone
 * without signing in, for SHARE_LINK_DAYS. The link carries 32 random bytes; only their SHA-256 is
 * stored, so the address is shown once, when the link is made. A user has one link to a receipt at
 * a time. A link is made only for a receipt its maker sees, and it shows only while its owner is
 * active and still sees the receipt; it ends when revoked or expired, and with its owner's account
 * (the foreign key cascades).
 */
import { createHash, randomBytes } from 'node:crypto';
import { Op, QueryTypes, UniqueConstraintError } from 'sequelize';
import { m } from '~/paraglide/messages.js';
import {
  SHARE_LINK_DAYS,
  SHARE_LINK_PATH,
  shareTokenSchema,
  type CreatedShareLink,
  type SharedReceipt,
  type ShareLinkSummary,
} from '~/shared/share-links';
import type { PublicUser } from '~/shared/validation';
import type { Clock } from '../../clock';
import type { Config } from '../../config';
import { AppError } from '../../errors';
import { recordAudit, selfActor } from '../audit';
import type { LoginLimiter } from '../accounts';
import { readStatusHistory } from './receipt-history';
import { getReceipt, receiptFieldsByIds, visibleConsigneeIds, type ScopeDeps } from './receipts';
import type { LastSyncTime } from './sync-state';
import { DAY_MS } from '~/shared/constants';
import { formatDate } from '~/shared/format';

/** Views of share links one client address may open per login window, whatever the links. */
export const SHARE_VIEWS_PER_ADDRESS = 60;

/** Working links one user may have at once. */
export const SHARE_LINKS_ACTIVE = 50;
/** Links one user may make per login window. */
export const SHARE_LINKS_PER_WINDOW = 20;

export interface ShareLinkDeps extends ScopeDeps {
  clock: Clock;
  loginLimiter: LoginLimiter;
  lastSync: LastSyncTime;
  config: Pick<Config, 'publicUrl'>;
}

const hashShareToken = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * The user's link to a receipt that still works, without its address (only its hash is kept); null
 * when there is none.
 */
export async function activeShareLinkOf(
  { db, clock }: Pick<ShareLinkDeps, 'db' | 'clock'>,
  user: PublicUser,
  receiptId: number,
): Promise<ShareLinkSummary | null> {
  const link = await db.models.ShareLink.findOne({
    where: {
      userId: user.id,
      receiptId,
      revokedAt: null,
      expiresAt: { [Op.gt]: new Date(clock.now()) },
    },
    raw: true,
  });
  return (
    link && {
      id: link.id,
      receiptId,
      receiptNumber: '',
      createdAt: new Date(link.createdAt).toISOString(),
      expiresAt: new Date(link.expiresAt).toISOString(),
    }
  );
}

const linkExists = (createdAt: string) =>
  new AppError('CONFLICT', m.share_exists({ date: formatDate(createdAt) }));

/**
 * A new link to a receipt the user sees (someone else's receipt is a 404, as on its page). A user has
 * one link to a receipt at a time (a unique index on the links not revoked): while one works, another
 * is made only on purpose (`replace`), and that revokes the old one. A user has at most
 * SHARE_LINKS_ACTIVE working links and makes at most SHARE_LINKS_PER_WINDOW per login window: each is
 * a door to their data that nobody signs in through.
 */
export async function createShareLink(
  deps: ShareLinkDeps,
  user: PublicUser,
  receiptId: number,
  clientAddress: string | null,
  { replace = false } = {},
): Promise<CreatedShareLink> {
  const { db, clock } = deps;
  const receipt = await getReceipt(deps, user, receiptId);
  if (
    !(await deps.loginLimiter.admitRequest(
      `share links of user ${user.id}`,
      SHARE_LINKS_PER_WINDOW,
    ))
  ) {
    throw new AppError('RATE_LIMITED', m.share_rate_limited());
  }
  const token = randomBytes(32).toString('base64url');
  const actor = selfActor(user, clientAddress);
  try {
    const link = await db.sequelize.transaction(async (transaction) => {
      // The owner's row stays locked until the end (PostgreSQL; SQLite's transactions already take
      // turns), so two at once cannot both slip under the limit.
      await db.models.User.findByPk(user.id, {
        attributes: ['id'],
        lock: transaction.LOCK.UPDATE,
        transaction,
      });
      const now = clock.now();
      const current = await db.models.ShareLink.findOne({
        where: { userId: user.id, receiptId: receipt.id, revokedAt: null },
        transaction,
      });
      const currentWorks = current !== null && current.expiresAt.getTime() > now;
      if (currentWorks && !replace) throw linkExists(current.createdAt.toISOString());
      // An expired link is revoked too: the index counts every link not revoked.
      await current?.update({ revokedAt: new Date(now) }, { transaction });
      if (currentWorks)
        await recordAudit(
          deps,
          actor,
          { action: 'share-link.revoked', target: `share link ${current.id}` },
          transaction,
        );
      const active = await db.models.ShareLink.count({
        where: { userId: user.id, revokedAt: null, expiresAt: { [Op.gt]: new Date(now) } },
        transaction,
      });
      if (active >= SHARE_LINKS_ACTIVE)
        throw new AppError('CONFLICT', m.share_limit_reached({ max: SHARE_LINKS_ACTIVE }));
      const created = await db.models.ShareLink.create(
        {
          userId: user.id,
          receiptId: receipt.id,
          tokenHash: hashShareToken(token),
          createdAt: new Date(now),
          expiresAt: new Date(now + SHARE_LINK_DAYS * DAY_MS),
        },
        { transaction },
      );
      await recordAudit(
        deps,
        actor,
        { action: 'share-link.created', target: `receipt ${receipt.number}` },
        transaction,
      );
      return created;
    });
    return {
      id: link.id,
      url: new URL(`${SHARE_LINK_PATH}${token}`, deps.config.publicUrl).href,
      expiresAt: new Date(link.expiresAt).toISOString(),
    };
  } catch (error) {
    if (!(error instanceof UniqueConstraintError)) throw error;
    // Another request made the user's link to this receipt at the same moment.
    const made = await activeShareLinkOf(deps, user, receipt.id);
    throw linkExists(made?.createdAt ?? new Date(clock.now()).toISOString());
  }
}

/**
 * The user's links that still work, newest first, with their receipts' numbers (no addresses: only
 * hashes are kept).
 */
export async function listShareLinks(
  { db, clock }: Pick<ShareLinkDeps, 'db' | 'clock'>,
  user: PublicUser,
): Promise<ShareLinkSummary[]> {
  const rows = await db.sequelize.query<{
    id: number;
    receiptId: number;
    number: string | null;
    createdAt: string | Date;
    expiresAt: string | Date;
  }>(
    `SELECT s."id", s."receiptId", r."number", s."createdAt", s."expiresAt"
       FROM "share_links" s LEFT JOIN "receipts" r ON r."id" = s."receiptId"
      WHERE s."userId" = :userId AND s."revokedAt" IS NULL AND s."expiresAt" > :now
      ORDER BY s."createdAt" DESC, s."id" DESC`,
    { type: QueryTypes.SELECT, replacements: { userId: user.id, now: new Date(clock.now()) } },
  );
  return rows.map((row) => ({
    id: Number(row.id),
    receiptId: Number(row.receiptId),
    receiptNumber: row.number ?? '',
    createdAt: new Date(row.createdAt).toISOString(),
    expiresAt: new Date(row.expiresAt).toISOString(),
  }));
}

/** Ends one of the user's links; another user's link, or one already ended, is a 404. */
export async function revokeShareLink(
  deps: Pick<ShareLinkDeps, 'db' | 'clock'>,
  user: PublicUser,
  id: number,
  clientAddress: string | null,
): Promise<void> {
  const { db, clock } = deps;
  const now = new Date(clock.now());
  await db.sequelize.transaction(async (transaction) => {
    const [revoked] = await db.models.ShareLink.update(
      { revokedAt: now },
      { where: { id, userId: user.id, revokedAt: null, expiresAt: { [Op.gt]: now } }, transaction },
    );
    if (revoked !== 1) throw new AppError('NOT_FOUND', m.share_not_found());
    await recordAudit(
      deps,
      selfActor(user, clientAddress),
      { action: 'share-link.revoked', target: `share link ${id}` },
      transaction,
    );
  });
}

/** The per-address limit on opening share links, checked before the link is looked up; false: too many. */
export function admitShareView(
  { loginLimiter }: { loginLimiter: LoginLimiter },
  clientAddress: string,
): Promise<boolean> {
  return loginLimiter.admitRequest(`share view from ${clientAddress}`, SHARE_VIEWS_PER_ADDRESS);
}

/**
 * What the link shows, or null when it does not work: unknown, revoked, expired, its owner disabled or
 * gone, or the receipt no longer in its owner's scope.
 */
export async function readSharedReceipt(
  deps: ShareLinkDeps,
  token: string,
): Promise<SharedReceipt | null> {
  if (!shareTokenSchema.safeParse(token).success) return null;
  const { db, clock } = deps;
  const link = await db.models.ShareLink.findOne({
    attributes: ['userId', 'receiptId', 'expiresAt'],
    where: {
      tokenHash: hashShareToken(token),
      revokedAt: null,
      expiresAt: { [Op.gt]: new Date(clock.now()) },
    },
    raw: true,
  });
  if (!link) return null;
  const owner = await db.models.User.findByPk(link.userId, {
    attributes: ['id', 'role', 'isActive'],
    raw: true,
  });
  if (!owner?.isActive) return null;
  const consigneeIds = await visibleConsigneeIds(deps, {
    id: owner.id,
    role: owner.role,
  } as PublicUser);
  const receipt = (await receiptFieldsByIds(deps, [link.receiptId], consigneeIds)).get(
    link.receiptId,
  );
  if (!receipt) return null;
  const [history, lastSyncedAt] = await Promise.all([
    readStatusHistory(deps, receipt.id),
    deps.lastSync.read(),
  ]);
  return {
    number: receipt.number,
    status: receipt.status,
    history,
    origin: receipt.origin.name,
    destination: receipt.destination,
    pieces: receipt.pieces,
    totalWeightValue: receipt.totalWeightValue,
    lastSyncedAt,
    expiresAt: new Date(link.expiresAt).toISOString(),
  };
}

/** Links that ended or expired a while ago are only clutter. */
export async function purgeOldShareLinks(
  { db, clock }: Pick<ShareLinkDeps, 'db' | 'clock'>,
  olderThanMs: number,
): Promise<void> {
  const cutoff = new Date(clock.now() - olderThanMs);
  await db.models.ShareLink.destroy({
    where: { [Op.or]: [{ revokedAt: { [Op.lt]: cutoff } }, { expiresAt: { [Op.lt]: cutoff } }] },
  });
}
