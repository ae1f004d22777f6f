/**
 * The portal's Prometheus metrics, all defined here, on a registry of its own (never prom-client's
 * global one: two portals in one test process must not share counters). The composition root makes
 * one; services record through the narrow interfaces below, and GET /metrics reads `registry`.
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

export type SyncResultLabel = 'success' | 'failure' | 'interrupted';
export type SignInOutcome = 'success' | 'wrong' | 'limited';

export interface HttpMetrics {
  requestFinished(method: string, route: string, status: number, seconds: number): void;
}

export interface SyncMetrics {
  syncFinished(result: SyncResultLabel, seconds: number, finishedAtMs?: number): void;
}

export type JobOutcome = 'done' | 'retry' | 'given_up';

export interface OutboxMetrics {
  mailSent(): void;
  mailFailed(): void;
  jobFinished(kind: string, outcome: JobOutcome): void;
}

export interface SignInMetrics {
  signIn(outcome: SignInOutcome): void;
}

export interface ProviderMetrics {
  /** `outcome`: ok, or the ProviderError's kind. */
  providerCall(operation: string, outcome: string): void;
  tokenRefresh(result: 'success' | 'failure'): void;
}

/** `accepted`: the token opened the route; `refused`: 401 or 403; `limited`: 429. */
export type ApiTokenOutcome = 'accepted' | 'refused' | 'limited';

export interface ApiTokenMetrics {
  apiTokenRequest(outcome: ApiTokenOutcome): void;
}

/** What the scrape reads at that moment, from the database. */
export interface ScrapeReadings {
  outboxBacklog(): Promise<{ pending: number; oldestAgeSeconds: number }>;
  activeSessions(): Promise<number>;
  jobsPending(): Promise<number>;
  receiptsMirrored(): Promise<number>;
}

const KNOWN_METHODS: ReadonlySet<string> = new Set([
  'GET',
  'HEAD',
  'POST',
  'PUT',
  'PATCH',
  'DELETE',
  'OPTIONS',
]);

/** Up to a minute: a full sync of a large mirror takes tens of seconds. */
const SYNC_BUCKETS = [0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];
const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export class PortalMetrics
  implements
    HttpMetrics,
    SyncMetrics,
    OutboxMetrics,
    SignInMetrics,
    ProviderMetrics,
    ApiTokenMetrics
{
  readonly registry = new Registry();
  private readonly httpDuration: Histogram<'method' | 'route' | 'status_class'>;
  private readonly syncs: Counter<'result'>;
  private readonly syncDuration: Histogram<'result'>;
  private readonly lastSyncSuccess: Gauge;
  private readonly mailsSent: Counter;
  private readonly mailsFailed: Counter;
  private readonly jobs: Counter<'kind' | 'outcome'>;
  private readonly signIns: Counter<'outcome'>;
  private readonly providerCalls: Counter<'operation' | 'outcome'>;
  private readonly tokenRefreshes: Counter<'result'>;
  private readonly apiTokenRequests: Counter<'outcome'>;

  constructor(readings: ScrapeReadings) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    this.httpDuration = new Histogram({
      name: 'portal_http_request_duration_seconds',
      help: 'Time to answer a request, by method, route pattern and status class.',
      labelNames: ['method', 'route', 'status_class'],
      buckets: HTTP_BUCKETS,
      registers,
    });
    this.syncs = new Counter({
      name: 'portal_syncs_total',
      help: 'Receipt syncs by result.',
      labelNames: ['result'],
      registers,
    });
    this.syncDuration = new Histogram({
      name: 'portal_sync_duration_seconds',
      help: 'How long a receipt sync took, by result.',
      labelNames: ['result'],
      buckets: SYNC_BUCKETS,
      registers,
    });
    this.lastSyncSuccess = new Gauge({
      name: 'portal_sync_last_success_timestamp_seconds',
      help: 'Unix time of the last successful sync this process ran (0: none yet).',
      registers,
    });
    new Gauge({
      name: 'portal_receipts_mirrored',
      help: 'Receipts in the mirror.',
      registers,
      async collect() {
        this.set(await readings.receiptsMirrored());
      },
    });
    new Gauge({
      name: 'portal_outbox_pending_messages',
      help: 'E-mails waiting in the outbox.',
      registers,
      async collect() {
        this.set((await readings.outboxBacklog()).pending);
      },
    });
    new Gauge({
      name: 'portal_outbox_oldest_pending_age_seconds',
      help: 'Age of the oldest e-mail waiting in the outbox (0: none waits).',
      registers,
      async collect() {
        this.set((await readings.outboxBacklog()).oldestAgeSeconds);
      },
    });
    this.mailsSent = new Counter({
      name: 'portal_outbox_sent_total',
      help: 'E-mails delivered to the SMTP server.',
      registers,
    });
    this.mailsFailed = new Counter({
      name: 'portal_outbox_failed_total',
      help: 'Delivery attempts the SMTP server refused or missed.',
      registers,
    });
    this.jobs = new Counter({
      name: 'portal_outbox_jobs_total',
      help: 'Attempts at outbox jobs (forwarding to the provider, webhook deliveries), by kind and outcome.',
      labelNames: ['kind', 'outcome'],
      registers,
    });
    new Gauge({
      name: 'portal_outbox_pending_jobs',
      help: 'Outbox jobs neither done nor given up on.',
      registers,
      async collect() {
        this.set(await readings.jobsPending());
      },
    });
    this.signIns = new Counter({
      name: 'portal_sign_ins_total',
      help: 'Sign-in attempts by outcome.',
      labelNames: ['outcome'],
      registers,
    });
    new Gauge({
      name: 'portal_active_sessions',
      help: 'Sessions that have neither ended nor expired.',
      registers,
      async collect() {
        this.set(await readings.activeSessions());
      },
    });
    this.providerCalls = new Counter({
      name: 'portal_provider_calls_total',
      help: "Calls to the provider's API by operation and outcome.",
      labelNames: ['operation', 'outcome'],
      registers,
    });
    this.tokenRefreshes = new Counter({
      name: 'portal_token_refreshes_total',
      help: 'Refresh grants sent to the provider, by result.',
      labelNames: ['result'],
      registers,
    });
    this.apiTokenRequests = new Counter({
      name: 'portal_api_token_requests_total',
      help: 'API requests made with a personal API token, by outcome.',
      labelNames: ['outcome'],
      registers,
    });
    // Known label values from the start, so that a rate() sees the first increment.
    for (const outcome of ['success', 'wrong', 'limited'] as const)
      this.signIns.inc({ outcome }, 0);
    for (const result of ['success', 'failure', 'interrupted'] as const)
      this.syncs.inc({ result }, 0);
    for (const result of ['success', 'failure'] as const) this.tokenRefreshes.inc({ result }, 0);
    for (const outcome of ['accepted', 'refused', 'limited'] as const)
      this.apiTokenRequests.inc({ outcome }, 0);
  }

  requestFinished(method: string, route: string, status: number, seconds: number): void {
    const label = KNOWN_METHODS.has(method) ? method : 'other';
    this.httpDuration.observe(
      { method: label, route, status_class: `${Math.floor(status / 100)}xx` },
      seconds,
    );
  }

  syncFinished(result: SyncResultLabel, seconds: number, finishedAtMs?: number): void {
    this.syncs.inc({ result });
    this.syncDuration.observe({ result }, seconds);
    if (result === 'success' && finishedAtMs !== undefined)
      this.lastSyncSuccess.set(Math.floor(finishedAtMs / 1000));
  }

  mailSent(): void {
    this.mailsSent.inc();
  }

  mailFailed(): void {
    this.mailsFailed.inc();
  }

  jobFinished(kind: string, outcome: JobOutcome): void {
    this.jobs.inc({ kind, outcome });
  }

  signIn(outcome: SignInOutcome): void {
    this.signIns.inc({ outcome });
  }

  providerCall(operation: string, outcome: string): void {
    this.providerCalls.inc({ operation, outcome });
  }

  tokenRefresh(result: 'success' | 'failure'): void {
    this.tokenRefreshes.inc({ result });
  }

  apiTokenRequest(outcome: ApiTokenOutcome): void {
    this.apiTokenRequests.inc({ outcome });
  }

  /** The exposition text and its content type, for GET /metrics. */
  async exposition(): Promise<{ text: string; contentType: string }> {
    return { text: await this.registry.metrics(), contentType: this.registry.contentType };
  }
}
