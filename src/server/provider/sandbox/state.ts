/**
 * The built-in sandbox provider of one portal: its data (generated on first use), its receipts'
 * attachments, the simulated outage, and its authorization server. The composition root makes one with
 * PROVIDER=sandbox.
 *
 * Its data moves with the time since its start, which is kept beside the database (`sandbox.json` in
 * the data folder) with the pre-alerts it was told of: a restart carries on where it was, instead of
 * starting over, which made the next sync remove every receipt added since the first start.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Clock } from '../../clock';
import type { Config } from '../../config';
import type { AppKeys } from '../../secrets';
import { SandboxAttachments } from './attachments';
import { SandboxAuthorizationServer, type SandboxAuthorizationConfig } from './authorization';
import { SANDBOX_MAGAYA_PASSWORD, SANDBOX_MAGAYA_USERNAME, SandboxMagaya } from './magaya';
import { SandboxStore, type SandboxMemory } from './store';

export type SandboxConfig = SandboxAuthorizationConfig &
  Pick<
    Config,
    | 'sandboxSeed'
    | 'sandboxReceipts'
    | 'sandboxChangeSeconds'
    | 'sandboxControl'
    | 'sandboxProtocol'
    | 'dataDir'
  >;

/** The file beside the database that keeps the sandbox's start and memory. */
export const SANDBOX_STATE_FILE = 'sandbox.json';

interface KeptSandbox extends SandboxMemory {
  seed: number;
  receipts: number;
  startedAt: number;
}

export class Sandbox {
  readonly authorization: SandboxAuthorizationServer;
  /** The receipts' photos and proofs of delivery, made when asked for. */
  readonly attachments: SandboxAttachments;
  /** The provider is "down" (the control endpoint's outage): data calls answer 503. */
  down = false;
  /**
   * Whether it offers the optional pre-alerts (`GET /v1/capabilities`); a control turns it off, as
   * a provider without them.
   */
  offersPrealerts = true;
  /** The same data as Magaya's CSSoapService answers it, with SANDBOX_PROTOCOL=magaya; null otherwise. */
  readonly magaya: SandboxMagaya | null;
  private data: SandboxStore | undefined;

  constructor(
    private readonly deps: {
      config: SandboxConfig;
      keys: Pick<AppKeys, 'sandboxAccessTokens' | 'sandboxRefreshTokens'>;
      clock: Clock;
    },
  ) {
    this.authorization = new SandboxAuthorizationServer(deps);
    this.attachments = new SandboxAttachments(deps.config.sandboxSeed);
    this.magaya =
      deps.config.sandboxProtocol === 'magaya'
        ? new SandboxMagaya({
            store: () => this.currentStore(),
            attachments: this.attachments,
            clock: deps.clock,
            username: SANDBOX_MAGAYA_USERNAME,
            password: SANDBOX_MAGAYA_PASSWORD,
          })
        : null;
  }

  get config(): SandboxConfig {
    return this.deps.config;
  }

  get clock(): Clock {
    return this.deps.clock;
  }

  /** The data: on first use, as kept from before a restart (with the windows since), or new from now. */
  store(): SandboxStore {
    if (this.data) return this.data;
    const { sandboxSeed: seed, sandboxReceipts: receipts } = this.deps.config;
    const kept = this.readKept();
    // Another seed or size is other data: it starts over.
    const resumed = kept?.seed === seed && kept.receipts === receipts ? kept : null;
    const startedAt = resumed?.startedAt ?? this.deps.clock.now();
    const store = new SandboxStore(seed, receipts, startedAt);
    if (resumed) store.restore(resumed, this.deps.clock.now(), this.intervalMs);
    this.data = store;
    this.startedAt = startedAt;
    if (!resumed) this.keep();
    return store;
  }

  /** The data as it is now: change windows that have passed since the last look are applied first. */
  currentStore(): SandboxStore {
    const store = this.store();
    store.catchUp(this.deps.clock.now(), this.intervalMs);
    return store;
  }

  /** Writes down what a restart needs: after a pre-alert was told or withdrawn, or a window applied ahead of time. */
  keep(): void {
    if (!this.data || this.startedAt === null) return;
    const kept: KeptSandbox = {
      seed: this.deps.config.sandboxSeed,
      receipts: this.deps.config.sandboxReceipts,
      startedAt: this.startedAt,
      ...this.data.memory(),
    };
    const file = this.file;
    mkdirSync(path.dirname(file), { recursive: true });
    // Whole or not at all: a restart during the write finds the old file.
    writeFileSync(`${file}.tmp`, JSON.stringify(kept));
    renameSync(`${file}.tmp`, file);
  }

  private startedAt: number | null = null;

  private get intervalMs(): number {
    return this.deps.config.sandboxChangeSeconds * 1000;
  }

  private get file(): string {
    return path.join(this.deps.config.dataDir, SANDBOX_STATE_FILE);
  }

  private readKept(): KeptSandbox | null {
    try {
      const kept = JSON.parse(readFileSync(this.file, 'utf8')) as KeptSandbox;
      return Number.isSafeInteger(kept.startedAt) &&
        Number.isSafeInteger(kept.windowsApplied) &&
        Array.isArray(kept.prealerts)
        ? kept
        : null;
    } catch {
      // None yet, or unreadable: the sandbox starts now.
      return null;
    }
  }
}
