/** The sandbox's demo customer: a viewer with three consignees, made once on first start. */
import { config } from '../config';
import { Consignee, User } from '../db/models';
import { createUserSchema } from '~/shared/validation';
import { assignConsignees } from './assignments';
import { importConsignees } from './consignees';
import { generatePassword } from './passwords';
import { readSyncState, saveSyncState } from './sync-state';
import { createUser } from './users';

export const DEMO_USERNAME = 'demo';
const DEMO_CONSIGNEES = 3;

export async function createDemoCustomer(): Promise<void> {
  if ((await readSyncState()).demoUsersCreatedAt) return;
  if ((await Consignee.count()) === 0) await importConsignees();
  if (await User.findOne({ where: { username: DEMO_USERNAME } })) return;
  const consignees = await Consignee.findAll({ attributes: ['id', 'name'], order: [['id', 'ASC']], limit: DEMO_CONSIGNEES, raw: true });
  const password = config.demoPassword ?? generatePassword();
  const user = await createUser(
    createUserSchema.parse({ username: DEMO_USERNAME, fullName: 'Demo Customer', password, role: 'viewer' }),
  );
  await assignConsignees(user.id, consignees.map(({ id }) => id));
  await saveSyncState({ demoUsersCreatedAt: new Date() });
  const names = consignees.map(({ name }) => name).join(', ');
  console.log(
    config.demoPassword
      ? `Demo customer "${DEMO_USERNAME}" created with the password from DEMO_PASSWORD; its consignees: ${names}`
      : ['', '  Demo customer created. Sign in with:', `    username: ${DEMO_USERNAME}`, `    password: ${password}`, `  Its consignees: ${names}`, '  This password is shown only once.', ''].join('\n'),
  );
}
