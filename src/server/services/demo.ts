/**
 * What a portal on its built-in sandbox does before its first sync: it connects itself to the sandbox,
 * and once makes the demo customer, a viewer with three consignees.
 */
import { createUserSchema } from '~/shared/validation';
import type { Config } from '../config';
import type { Logger } from '../logger';
import type { OAuthDeps } from '../provider/oauth';
import { connectSandbox } from '../provider/sandbox/connect';
import type { Sandbox } from '../provider/sandbox/state';
import type { TokenStore } from '../provider/token-store';
import { assignConsignees, importConsignees, type ConsigneeImportDeps } from './consignees';
import { generatePassword, createUser, type UserDeps } from './accounts';
import { readSyncState, saveSyncState } from './receipts';

export const DEMO_USERNAME = 'demo';
const DEMO_CONSIGNEES = 3;

export type DemoDeps = ConsigneeImportDeps &
  UserDeps & { config: Pick<Config, 'demoPassword'>; log: Logger };

export async function createDemoCustomer(deps: DemoDeps): Promise<void> {
  const { db, config } = deps;
  if ((await readSyncState(deps)).demoUsersCreatedAt) return;
  if ((await db.models.Consignee.count()) === 0) await importConsignees(deps, null);
  if (await db.models.User.findOne({ where: { username: DEMO_USERNAME } })) return;
  const consignees = await db.models.Consignee.findAll({
    attributes: ['id', 'name'],
    order: [['id', 'ASC']],
    limit: DEMO_CONSIGNEES,
    raw: true,
  });
  const password = config.demoPassword ?? generatePassword();
  const user = await createUser(deps, null, {
    ...createUserSchema.parse({
      username: DEMO_USERNAME,
      fullName: 'Demo Customer',
      password,
      role: 'viewer',
    }),
    password,
  });
  await assignConsignees(
    deps,
    null,
    user.id,
    consignees.map(({ id }) => id),
  );
  await saveSyncState(deps, { demoUsersCreatedAt: new Date(deps.clock.now()) });
  const names = consignees.map(({ name }) => name).join(', ');
  deps.log.info(
    { component: 'startup' },
    config.demoPassword
      ? `Demo customer "${DEMO_USERNAME}" created with the password from DEMO_PASSWORD; its consignees: ${names}`
      : `Demo customer created. Sign in with username: ${DEMO_USERNAME} password: ${password} ` +
          `(shown only once); its consignees: ${names}`,
  );
}

export type SandboxPreparationDeps = DemoDeps &
  OAuthDeps & {
    config: Pick<Config, 'demoPassword' | 'demoUsers'>;
    sandbox: Sandbox;
    tokenStore: TokenStore;
  };

/** Connects the portal to its sandbox unless it holds a refresh token already, then makes the demo customer (once). */
export async function prepareSandboxPortal(deps: SandboxPreparationDeps): Promise<void> {
  if (!(await deps.tokenStore.read())?.refreshToken) await connectSandbox(deps);
  if (deps.config.demoUsers) await createDemoCustomer(deps);
}
