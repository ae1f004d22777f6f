/**
 * The built-in sandbox provider of one portal: its data (generated on first use), its receipts'
 * attachments, the simulated outage, and its authorization server. The composition root makes one with
 * PROVIDER=sandbox.
 */
import type { Clock } from '../../clock';
import type { Config } from '../../config';
import type { AppKeys } from '../../secrets';
import { SandboxAttachments } from './attachments';
import { SandboxAuthorizationServer, type SandboxAuthorizationConfig } from './authorization';
import { SANDBOX_MAGAYA_PASSWORD, SANDBOX_MAGAYA_USERNAME, SandboxMagaya } from './magaya';
import { SandboxStore } from './store';

export type SandboxConfig = SandboxAuthorizationConfig &
  Pick<Config, 'sandboxSeed' | 'sandboxReceipts' | 'sandboxChangeSeconds' | 'sandboxControl' | 'sandboxProtocol'>;

export class Sandbox {
  readonly authorization: SandboxAuthorizationServer;
  /** The receipts' photos and proofs of delivery, made when asked for. */
  readonly attachments: SandboxAttachments;
  /** The provider is "down" (the control endpoint's outage): data calls answer 503. */
  down = false;
  /** Whether it offers the optional pre-alerts (`GET /v1/capabilities`); a control turns it off, as a provider without them. */
  offersPrealerts = true;
  /** The same data as Magaya's CSSoapService answers it, with SANDBOX_PROTOCOL=magaya; null otherwise. */
  readonly magaya: SandboxMagaya | null;
  private data: SandboxStore | undefined;

  constructor(private readonly deps: { config: SandboxConfig; keys: Pick<AppKeys, 'sandboxAccessTokens' | 'sandboxRefreshTokens'>; clock: Clock }) {
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

  store(): SandboxStore {
    return (this.data ??= new SandboxStore(this.deps.config.sandboxSeed, this.deps.config.sandboxReceipts, this.deps.clock.now()));
  }

  /** The data as it is now: change windows that have passed since the last look are applied first. */
  currentStore(): SandboxStore {
    const store = this.store();
    store.catchUp(this.deps.clock.now(), this.deps.config.sandboxChangeSeconds * 1000);
    return store;
  }
}
