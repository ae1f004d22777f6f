/**
 * The composition root: one portal, made from its configuration. It builds and owns everything that
 * has state or timers (the database, the caches, the provider's client, the sync, the outbox, the
 * mail, the sandbox) and hands them to the services, which hold none of their own. server.mjs makes
 * one and passes it to every request as `locals.portal`; in-process tests make their own, with a
 * clock they move. docs/architecture.md explains the whole.
 */
import { systemClock, type Clock } from './clock';
import type { Config } from './config';
import { Database } from './db/database';
import { WriteTurns } from './db/write-turns';
import { migrateDatabase } from './db/migrate';
import { createLogger, RequestScope, type Logger } from './logger';
import { PortalMetrics } from './metrics';
import type { DestinationStream } from 'pino';
import { EncodingChooser } from './http/encoded-json';
import { FirstPaint } from './http/first-paint-css';
import { ApiDocumentAnswer } from './http/openapi';
import { Mailer } from './mail/mailer';
import { HttpProviderClient } from './provider/client';
import type { ProviderClient } from './provider/contract';
import { MagayaProviderClient } from './provider/magaya/client';
import { MagayaSessions } from './provider/magaya/session';
import { MagayaError } from './provider/magaya/soap';
import { ProviderDiscovery } from './provider/discovery';
import { Sandbox } from './provider/sandbox/state';
import { deriveAppKeys, readAppSecret, type AppKeys } from './secrets';
import { purgeOldAuditEntries } from './services/audit';
import { BrandingStore } from './services/branding';
import { createDemoCustomer, prepareSandboxPortal } from './services/demo';
import {
  MagayaConnectionStore,
  MagayaIdStore,
  MirrorSchedule,
  ProviderTokenStore,
  SyncRunner,
} from './services/sync';
import {
  mirrorPackageScans,
  MirrorFollower,
  ReceiptIndex,
  createAssignmentCache,
  type AssignmentCache,
  ResponseCache,
  statusHistoryReaction,
  LastSyncTime,
  purgeOldShareLinks,
} from './services/receipts';
import {
  LoginLimiter,
  PasswordHasher,
  countActiveSessions,
  createSessionCache,
  purgeExpiredSessions,
  type SessionCache,
  purgeExpiredPendingSignIns,
  keyStoredRecoveryCodes,
  ensureFirstAdmin,
  purgeOldAccountTokens,
  purgeOldApiTokens,
  purgeExpiredPasskeyChallenges,
} from './services/accounts';
import {
  Outbox,
  purgeFinishedJobs,
  purgeSpentMessages,
  readJobBacklog,
  readOutboxBacklog,
} from './services/outbox';
import { SyncReactions } from './services/sync-reactions';
import { statusDigestReaction } from './services/notifications';
import { ImportFolder } from './services/imports';
import { SingleFlight } from './single-flight';
import { AfterAnswer } from './after-answer';
import { AttachmentFetches, purgeOrphanAttachments } from './services/attachments';
import {
  WEBHOOK_DELIVERY_JOB,
  webhookDeliveryHandler,
  webhookEventsReaction,
} from './services/webhooks';
import { WebhookSender } from './webhook-sender';
import { readFileSync } from 'node:fs';
import {
  createPrealertForwarder,
  PREALERT_FORWARD_JOB,
  prealertMatchingReaction,
  purgeOrphanInvoices,
} from './services/prealerts';
import type { ImportResult } from '~/shared/consignees';
import type { StartupState } from './services/health';

const HOUSEKEEPING_INTERVAL_MS = 15 * 60_000;
/**
 * How often IMPORT_DIR is looked at: a file is taken at the second look that finds its size
 * unchanged, so within 20 s of its last write.
 */
const IMPORT_SCAN_INTERVAL_MS = 10_000;
/** Ended and expired reset and invitation tokens are kept a day, then dropped. */
const ACCOUNT_TOKENS_KEPT_MS = 86_400_000;
/** Outbox jobs done or given up on are kept a week, to look into, then dropped. */
const FINISHED_JOBS_KEPT_MS = 7 * 86_400_000;
/** E-mails sent or given up are kept a week, without their bodies, then dropped. */
const SPENT_MESSAGES_KEPT_MS = 7 * 86_400_000;
/** Revoked and expired API tokens are kept a month: a script still sending one is told why it fails. */
const API_TOKENS_KEPT_MS = 30 * 86_400_000;

/** WEBHOOK_CA_FILE's certificates; a file that cannot be read stops the start with a line saying which. */
function readWebhookCa(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new Error(
      `WEBHOOK_CA_FILE cannot be read: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

/** Waits `ms`, or less when `signal` aborts (with its reason). */
function abortablePause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

export interface PortalOptions {
  /** The time the portal's rules go by; the system clock unless a test brings its own. */
  clock?: Clock;
  /**
   * Background work: the scheduled syncs (and the first one), following other processes' syncs, the
   * outbox's polling, housekeeping. In-process tests that drive each step themselves turn it off.
   */
  background?: boolean;
  /** Where the built client assets are (the first-paint rules are read from them). */
  clientDir?: string;
  /** Where log lines go instead of standard output (a test reads them). */
  logDestination?: DestinationStream;
  /** The time limit of one webhook delivery; 10 s unless a test that waits for it sets less. */
  webhookTimeoutMs?: number;
  /** How often the outbox renews the claim of an entry it is trying; 30 s unless a test sets less. */
  outboxClaimRenewalMs?: number;
  /** How long a view waits for the provider's list of a receipt's attachments; 10 s unless a test sets less. */
  attachmentListWaitMs?: number;
  /** How often IMPORT_DIR is looked at (PROVIDER=file); 10 s unless a test sets less. */
  importScanMs?: number;
  /** How many search texts the list's index reads at a time; 5,000 unless a test of several reads sets less. */
  searchTextsPerRead?: number;
}

export interface Portal {
  readonly config: Config;
  readonly clock: Clock;
  /** The one logger (src/server/logger.ts): every line of a request carries its id through `requestScope`. */
  readonly log: Logger;
  readonly requestScope: RequestScope;
  /** This process's Prometheus metrics (src/server/metrics.ts), served by GET /metrics. */
  readonly metrics: PortalMetrics;
  /** Where start() is: what readiness reports. */
  startupState(): StartupState;
  readonly db: Database;
  readonly keys: AppKeys;
  readonly passwords: PasswordHasher;
  readonly loginLimiter: LoginLimiter;
  readonly sessionCache: SessionCache;
  readonly assignmentCache: AssignmentCache;
  readonly receiptIndex: ReceiptIndex;
  readonly responseCache: ResponseCache;
  readonly lastSync: LastSyncTime;
  readonly mirror: MirrorFollower;
  readonly syncRuns: SyncRunner;
  /** What reacts to the sync's pages and to its end (services/sync-reactions.ts). */
  readonly syncReactions: SyncReactions;
  readonly mailer: Mailer;
  readonly outbox: Outbox;
  /** Makes webhook deliveries' requests, refusing addresses they may not reach (src/server/webhook-sender.ts). */
  readonly webhookSender: WebhookSender;
  readonly branding: BrandingStore;
  readonly discovery: ProviderDiscovery;
  readonly tokenStore: ProviderTokenStore;
  /**
   * Where the receipts come from: the contract's HTTP client, or Magaya's (PROVIDER=magaya, or the
   * sandbox in its Magaya mode).
   */
  readonly provider: ProviderClient;
  /** The contract's OAuth2 client, whose tokens Token Management shows (unused with Magaya). */
  readonly oauthClient: HttpProviderClient;
  /** PROVIDER=magaya's client and its connection (the API user, the last session); null for the contract. */
  readonly magaya: { client: MagayaProviderClient; connection: MagayaConnectionStore } | null;
  /** The built-in sandbox provider, with PROVIDER=sandbox; null otherwise. */
  readonly sandbox: Sandbox | null;
  /** The watched folder of exports, with PROVIDER=file; null otherwise. */
  readonly importFolder: ImportFolder | null;
  /** This process's imports take turns (services/imports). */
  readonly importTurns: WriteTurns;
  readonly consigneeImports: SingleFlight<ImportResult>;
  /** Work requests leave to run after their answers (src/server/after-answer.ts). */
  readonly afterAnswer: AfterAnswer;
  /** The receipts' attachment lists and files being fetched from the provider, shared by whoever asks meanwhile. */
  readonly attachmentFetches: AttachmentFetches;
  /** The encoding each Accept-Encoding header gets, for the cached answers' kept forms (respond.ts). */
  readonly answerEncodings: EncodingChooser;
  readonly firstPaint: FirstPaint;
  /** GET /api/openapi.json, built once. */
  readonly apiDocument: ApiDocumentAnswer;
  /**
   * Connects the database, migrates it and makes the first admin: then the portal can answer. With
   * `background`, the scheduled work starts too; in sandbox mode the first sync asks this very server,
   * so call it once the server listens (its requests wait for `ready`).
   */
  start(): Promise<void>;
  /** Settles once start() has (and rejects if it failed): what requests wait for. */
  readonly ready: Promise<void>;
  /**
   * A clean stop: no new syncs or e-mails, the sync's page and the outbox's batch finished, then the
   * database closed once `requestsDone` settles.
   */
  stop(requestsDone?: Promise<void>): Promise<void>;
  /**
   * Housekeeping now (expired sessions, old login attempts and audit entries, attachments of
   * deleted receipts): what the background does every 15 minutes.
   */
  keepHouse(): Promise<void>;
}

export function createPortal(config: Config, options: PortalOptions = {}): Portal {
  const clock = options.clock ?? systemClock;
  const background = options.background ?? true;
  const requestScope = new RequestScope();
  const log = createLogger({
    level: config.logLevel,
    format: config.logFormat,
    requestScope,
    destination: options.logDestination,
  });
  let startupState: StartupState = 'starting';
  const db = new Database(config);
  const keys = deriveAppKeys(readAppSecret(config));
  const passwords = new PasswordHasher(config.passwordHashCost);
  const responseCache = new ResponseCache();
  const receiptIndex = new ReceiptIndex(db, options.searchTextsPerRead);
  const lastSync = new LastSyncTime(db, log);
  const mirror = new MirrorFollower({ db, receiptIndex, responseCache, log });
  // Read at scrape time; before start-up has connected the database there is nothing to read.
  const started = <T>(read: () => Promise<T>, none: T) =>
    startupState === 'started' ? read() : Promise.resolve(none);
  const metrics = new PortalMetrics({
    outboxBacklog: () =>
      started(() => readOutboxBacklog({ db, clock }), {
        pending: 0,
        oldestAgeSeconds: 0,
        retrying: 0,
      }),
    activeSessions: () => started(() => countActiveSessions({ db, clock, config }), 0),
    jobsPending: () => started(async () => (await readJobBacklog({ db, clock })).pending, 0),
    receiptsMirrored: () => started(() => db.models.ReceiptRecord.count(), 0),
  });
  const mailer = new Mailer(config);
  const outbox = new Outbox({
    db,
    clock,
    config,
    mailer,
    log,
    metrics,
    claimRenewalMs: options.outboxClaimRenewalMs,
  });
  const discovery = new ProviderDiscovery(config, log);
  const tokenStore = new ProviderTokenStore({ db, clock, key: keys.providerTokens });
  const oauthClient = new HttpProviderClient({
    config,
    discovery,
    clock,
    tokenStore,
    metrics,
    log,
  });
  // Aborted at shutdown: a Magaya session asks nothing more and ends.
  const stopping = new AbortController();
  const magaya = config.providerProtocol === 'magaya' ? createMagaya() : null;
  const provider: ProviderClient = magaya?.client ?? oauthClient;
  const sandbox = config.provider === 'sandbox' ? new Sandbox({ config, keys, clock }) : null;
  // The sync announces each page; these react, inside its transaction in this order (a pre-alert's
  // webhook carries the receipt with the page's history; the webhooks tell the changes the history
  // recorded), and the digest after the sync.
  const syncReactions = new SyncReactions(log);
  syncReactions.inTransaction(statusHistoryReaction({ db }));
  syncReactions.inTransaction(prealertMatchingReaction({ db, clock, outbox }));
  syncReactions.inTransaction(webhookEventsReaction({ db, clock, outbox }));
  syncReactions.afterCommit(
    statusDigestReaction({ db, clock, config, keys, outbox, mailer }),
    'Status e-mails could not be queued',
  );
  const syncRuns = new SyncRunner({
    db,
    clock,
    config,
    provider,
    lastSync,
    mirror,
    log,
    metrics,
    reactions: syncReactions,
  });
  const importTurns = new WriteTurns();
  const importFolder =
    config.provider === 'file'
      ? new ImportFolder({
          db,
          clock,
          config,
          provider,
          lastSync,
          mirror,
          log,
          metrics,
          syncReactions,
          importTurns,
          syncRuns,
        })
      : null;
  const webhookSender = new WebhookSender({
    allowHttp: config.webhookAllowHttp,
    allowPrivate: config.webhookAllowPrivate,
    extraCa: config.webhookCaFile ? readWebhookCa(config.webhookCaFile) : null,
    timeoutMs: options.webhookTimeoutMs,
  });
  outbox.handle(
    WEBHOOK_DELIVERY_JOB,
    webhookDeliveryHandler({ db, clock, outbox, keys, webhookSender, config, mailer, log }),
  );
  // PROVIDER=file has no provider to forward pre-alerts to: they are matched on import, and their forwards end at once.
  outbox.handle(
    PREALERT_FORWARD_JOB,
    config.provider === 'file'
      ? { run: async () => {} }
      : createPrealertForwarder({ db, provider, log }),
  );

  function createMagaya() {
    const ids = new MagayaIdStore({ db });
    const credentials =
      config.magayaUsername && config.magayaPassword
        ? { username: config.magayaUsername, password: config.magayaPassword }
        : null;
    const connection = new MagayaConnectionStore({
      db,
      clock,
      key: keys.providerTokens,
      fromEnvironment: credentials,
    });
    const sessions = new MagayaSessions({
      connection: async () => {
        const user = await connection.credentials();
        if (!user) throw new MagayaError('not_configured');
        return { url: config.magayaUrl!, timeoutMs: config.providerTimeoutMs, ...user };
      },
      pause: (ms) => abortablePause(ms, stopping.signal),
      signal: stopping.signal,
      timeZone: config.magayaTimeZone,
    });
    const client = new MagayaProviderClient({
      sessions,
      ids,
      sessionLog: connection,
      clock,
      log,
      mirrorPackages: (trackingNumber) => mirrorPackageScans({ db }, trackingNumber),
    });
    return { client, connection };
  }

  const parts = {
    config,
    clock,
    log,
    requestScope,
    metrics,
    startupState: () => startupState,
    db,
    keys,
    passwords,
    loginLimiter: new LoginLimiter({ db, config, clock }),
    sessionCache: createSessionCache(db),
    assignmentCache: createAssignmentCache(db),
    receiptIndex,
    responseCache,
    lastSync,
    mirror,
    syncRuns,
    syncReactions,
    mailer,
    outbox,
    webhookSender,
    branding: new BrandingStore({ db, clock, config, log }),
    discovery,
    tokenStore,
    provider,
    oauthClient,
    magaya,
    sandbox,
    importFolder,
    importTurns,
    consigneeImports: new SingleFlight<ImportResult>(),
    afterAnswer: new AfterAnswer((error) =>
      log.error({ err: error }, 'Work after an answer failed'),
    ),
    attachmentFetches: new AttachmentFetches(options.attachmentListWaitMs),
    answerEncodings: new EncodingChooser(),
    firstPaint: new FirstPaint(log, options.clientDir),
    apiDocument: new ApiDocumentAnswer(),
  };

  const schedule = new MirrorSchedule({
    config,
    syncRuns,
    mirror,
    log,
    // Magaya's full read is every receipt there is: a start reads only the changes unless the weekly one is due.
    fullOnStart: !magaya,
    prepare: async () => {
      if (magaya) {
        // The sandbox's demo customer takes consignees Magaya names on its receipts: they come with the first sync.
        if (sandbox && config.demoUsers) {
          await syncRuns.syncReceipts();
          await createDemoCustomer(parts);
        }
        return;
      }
      discovery.start();
      if (sandbox) await prepareSandboxPortal({ ...parts, sandbox });
    },
  });
  let housekeeping: NodeJS.Timeout | undefined;
  let importScans: NodeJS.Timeout | undefined;
  const scanImports = () =>
    importFolder
      ?.scan()
      .catch((error) =>
        log.error(
          { component: 'imports', err: error },
          `The import folder ${config.importDir} could not be read`,
        ),
      );
  const keepHouse = async () => {
    await purgeExpiredSessions(parts);
    await purgeExpiredPendingSignIns(parts);
    await purgeExpiredPasskeyChallenges(parts);
    await parts.loginLimiter.purgeOldLoginAttempts();
    await purgeOldAccountTokens(parts, ACCOUNT_TOKENS_KEPT_MS);
    await purgeOldShareLinks(parts, ACCOUNT_TOKENS_KEPT_MS);
    await purgeFinishedJobs(parts, FINISHED_JOBS_KEPT_MS);
    await purgeSpentMessages(parts, SPENT_MESSAGES_KEPT_MS);
    await purgeOldApiTokens(parts, API_TOKENS_KEPT_MS);
    await purgeOrphanAttachments(parts);
    await purgeOrphanInvoices(parts);
    await purgeOldAuditEntries(parts);
  };

  let stopped: Promise<void> | undefined;
  let startReady!: () => void;
  let failReady!: (error: unknown) => void;
  const ready = new Promise<void>((resolve, reject) => {
    startReady = resolve;
    failReady = reject;
  });
  // Nobody may be waiting yet; a failed start is reported by start() itself.
  ready.catch(() => {});

  return {
    ...parts,
    ready,
    keepHouse,
    async start() {
      try {
        if (sandbox) {
          log.warn(
            { component: 'startup' },
            'PROVIDER=sandbox: /sandbox serves generated demo data through a built-in imitation ' +
              'of the logistics provider; do not expose this portal as it is (set PROVIDER=http for ' +
              'real data).',
          );
        }
        await db.connect();
        await db.oneStartAtATime(async () => {
          await migrateDatabase(db.sequelize);
          await ensureFirstAdmin(parts);
          // Once, for recovery codes stored before they were keyed (migration 0026).
          await keyStoredRecoveryCodes(parts);
          // Once, for a logo or background uploaded before pages were sent their sizes.
          await parts.branding.makeMissingVariants();
        });
        await passwords.prepareDecoy();
        // Answers are cached under the mirror version: known before the first request, the first poll
        // finds it unchanged instead of clearing what was cached until then.
        await mirror.follow();
        await keepHouse();
        if (background) {
          housekeeping = setInterval(
            () =>
              keepHouse().catch((error) =>
                log.error({ component: 'housekeeping', err: error }, 'Housekeeping failed'),
              ),
            HOUSEKEEPING_INTERVAL_MS,
          ).unref();
          outbox.start();
          // PROVIDER=file has no provider to sync from: the folder's files are its syncs.
          if (importFolder) {
            mirror.startWatching();
            importScans = setInterval(
              () => void scanImports(),
              options.importScanMs ?? IMPORT_SCAN_INTERVAL_MS,
            ).unref();
            void scanImports();
          } else schedule.start();
        }
        startupState = 'started';
        startReady();
      } catch (error) {
        startupState = 'failed';
        failReady(error);
        throw error;
      }
    },
    stop(requestsDone = Promise.resolve()) {
      // A second stop (a second SIGTERM) waits for the first.
      stopped ??= (async () => {
        clearInterval(housekeeping);
        clearInterval(importScans);
        stopping.abort(new MagayaError('stopped'));
        discovery.stop();
        await Promise.all([
          importFolder ? importFolder.stop().then(() => mirror.stopWatching()) : schedule.stop(),
          requestsDone.then(() => parts.afterAnswer.settled()),
        ]);
        await outbox.stop();
        mailer.close();
        await db.close();
      })();
      return stopped;
    },
  };
}
