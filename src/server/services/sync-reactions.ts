/**
 * What a sync announces, and who reacts to it. The sync writes the mirror page by page; it hands each
 * page's outcome (the receipts it wrote, the statuses they take, the receipts it removed) to the
 * reactions the composition root registered, inside the page's own transaction and in the order they
 * were registered: what a reaction writes commits with the page, and a reaction that fails rolls the
 * page back. What the reactions found worth telling (the news) is gathered over the sync's committed
 * pages and handed, once the sync ends, to the reactions after it: one digest per sync, not per page.
 * The sync imports none of its reactions (docs/architecture.md, "The sync announces; others react"),
 * and whatever else writes the mirror (another provider, a file import) announces through the same.
 */
import type { Transaction } from 'sequelize';
import type { Logger } from '../logger';

/** A status the mirror is about to store for a receipt; `from` is null on its first mirroring. */
export interface StatusChange {
  receiptId: number;
  /** The receipt's number and consignee as this version has them: what a digest names and who sees it. */
  number: string;
  consigneeId: number | null;
  from: string | null;
  to: string;
  /** The provider's update time of this version: with the status, what makes the change unique. */
  version: Date;
  at: Date;
}

/** A receipt a page wrote (new or changed): what reactions need of it and its packages. */
export interface WrittenReceipt {
  id: number;
  number: string;
  consigneeId: number | null;
  /** Its packages' tracking keys (normalised as pre-alerts' numbers are). */
  trackingKeys: Array<string | null>;
}

/** A pre-alerted package that arrived: linked to the receipt it came on. */
export interface ArrivalLine {
  receiptId: number;
  number: string;
  consigneeId: number;
  trackingNumber: string;
  shipper: string;
}

/** One page of a sync, as it is written: announced inside its transaction. */
export interface MirrorPage {
  /** Whether the mirror is being filled for the first time: its receipts are new to the mirror, not to anyone. */
  firstMirroring: boolean;
  /** Receipts written because they were new or changed, with their packages. */
  written: WrittenReceipt[];
  /** The statuses the written receipts take where they differ from the stored ones. */
  statusChanges: StatusChange[];
  /** Receipts removed: the provider no longer has them. */
  removed: number[];
}

/** What the reactions to the pages found worth telling: handed on to the later reactions, and after the sync. */
export interface SyncNews {
  /** The status changes recorded by this sync (the status history leaves out one recorded already). */
  statusChanges: StatusChange[];
  /** Pre-alerted packages that came on the pages' receipts, now linked. */
  arrivals: ArrivalLine[];
}

/** Reacts to one page inside its transaction; it sees the news of the reactions before it, and answers its own. */
export type PageReaction = (
  page: MirrorPage,
  news: Readonly<SyncNews>,
  transaction: Transaction,
) => Promise<Partial<SyncNews> | void>;

/** Reacts once a sync has ended (its pages committed, whether it succeeded or not) to the news of its pages. */
export type NewsReaction = (news: SyncNews) => Promise<void>;

export const noNews = (): SyncNews => ({ statusChanges: [], arrivals: [] });

/** Adds the later news to the earlier (in place: a first mirroring's news runs to 100,000 changes and more). */
export function addNews(earlier: SyncNews, later: Partial<SyncNews>): void {
  for (const change of later.statusChanges ?? []) earlier.statusChanges.push(change);
  for (const arrival of later.arrivals ?? []) earlier.arrivals.push(arrival);
}

/** What the sync sees of its reactions: where it announces. */
export interface SyncAnnouncement {
  /** Inside the page's transaction: runs every page reaction in turn; answers the page's news. */
  pageWritten(page: MirrorPage, transaction: Transaction): Promise<SyncNews>;
  /**
   * After the sync: runs every reaction after it; one that fails is logged, and fails neither the
   * sync nor the others.
   */
  syncEnded(news: SyncNews): Promise<void>;
}

/**
 * The reactions to the sync, which the composition root registers (as it registers the outbox's
 * handlers) and hands to the sync as its announcement.
 */
export class SyncReactions implements SyncAnnouncement {
  private readonly pageReactions: PageReaction[] = [];
  private readonly newsReactions: Array<{ react: NewsReaction; failure: string }> = [];

  constructor(private readonly log: Logger) {}

  /** Registers a reaction to every page, after the ones registered before it. */
  inTransaction(reaction: PageReaction): this {
    this.pageReactions.push(reaction);
    return this;
  }

  /** Registers a reaction to every sync's news; `failure` is the line logged when it fails. */
  afterCommit(reaction: NewsReaction, failure: string): this {
    this.newsReactions.push({ react: reaction, failure });
    return this;
  }

  async pageWritten(page: MirrorPage, transaction: Transaction): Promise<SyncNews> {
    const news = noNews();
    for (const react of this.pageReactions) {
      const found = await react(page, news, transaction);
      if (found) addNews(news, found);
    }
    return news;
  }

  async syncEnded(news: SyncNews): Promise<void> {
    for (const { react, failure } of this.newsReactions) {
      // Telling people must never fail the sync that found the news.
      await react(news).catch((error: unknown) =>
        this.log.error({ component: 'sync', err: error }, failure),
      );
    }
  }
}
