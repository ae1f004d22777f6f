// `node tests/support/upgrade-fixture.mjs <folder>` writes <folder>/portal.sqlite and its app-secret: a
// database as the portal left it before 0018-accounts, with a few rows in every table a user would miss
// after an upgrade (tests/process/database/upgrade.test.ts). The schema comes from the frozen migrations
// 0001–0017 themselves, so the database is written afresh for each run rather than kept in the repository.
import { createHash } from 'node:crypto';
import { registerHooks } from 'node:module';
import { readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import bcrypt from 'bcrypt';
import { Sequelize } from 'sequelize';
import { SequelizeStorage, Umzug } from 'umzug';
import { deriveKey, encryptValue } from '../../src/server/encryption.ts';

// The migrations import each other without an extension, as the bundler resolves them; plain Node needs it.
registerHooks({
  resolve(specifier, context, nextResolve) {
    const betweenMigrations =
      context.parentURL?.includes('/db/migrations/') &&
      specifier.startsWith('./') &&
      !specifier.endsWith('.ts');
    return nextResolve(betweenMigrations ? `${specifier}.ts` : specifier, context);
  },
});

const folder = process.argv[2];
if (!folder) throw new Error('Usage: node tests/support/upgrade-fixture.mjs <folder>');
const FILE = path.join(folder, 'portal.sqlite');
/** The app secret the fixture's provider tokens are encrypted with, kept beside it as the portal keeps it. */
const SECRET_FILE = path.join(folder, 'app-secret');
const SECRET = 'upgrade-fixture-app-secret-0123456789abcdef';
const LAST = '0017-branding-image-variants';

await rm(FILE, { force: true });
const sequelize = new Sequelize({ dialect: 'sqlite', storage: FILE, logging: false });
const dir = new URL('../../db/migrations/', import.meta.url);
const names = new Set([
  '0001',
  '0002',
  '0003',
  '0004',
  '0005',
  '0006',
  '0007',
  '0008',
  '0009',
  '0010',
  '0011',
  '0012',
  '0013',
  '0014',
  '0015',
  '0016',
  '0017',
]);
const files = (await readdir(dir)).filter((file) => names.has(file.slice(0, 4))).sort();
const umzug = new Umzug({
  migrations: await Promise.all(
    files.map(async (file) => {
      const module = await import(new URL(file, dir).href);
      return {
        name: file.replace(/\.ts$/, ''),
        up: () => module.up(sequelize.getQueryInterface()),
        down: () => module.down(sequelize.getQueryInterface()),
      };
    }),
  ),
  context: sequelize.getQueryInterface(),
  storage: new SequelizeStorage({ sequelize, tableName: 'migrations' }),
  logger: undefined,
});
await umzug.up({ to: LAST });

const at = '2026-03-01 09:00:00.000 +00:00';
const now = new Date().toISOString().replace('T', ' ').replace('Z', ' +00:00');
const insert = (table, row) => sequelize.getQueryInterface().bulkInsert(table, [row]);
const tokenKey = deriveKey(SECRET, 'provider-tokens');
// As the portal hashes (src/server/services/passwords.ts): bcrypt of the password's SHA-256, at bcrypt's
// lowest cost, as the fixture is a test's and its passwords are written here in the clear.
const passwordHash = (password) =>
  bcrypt.hash(createHash('sha256').update(password, 'utf8').digest('base64'), 4);
/** A session's row holds its cookie token's SHA-256 (src/server/services/sessions.ts). */
const SESSION_TOKEN = 'fixture-session-token';
await insert('users', {
  id: 1,
  username: 'admin',
  passwordHash: await passwordHash('fixture-admin-pass'),
  fullName: 'Administrator',
  email: null,
  role: 'admin',
  isActive: true,
  lastLogin: at,
  createdAt: at,
  updatedAt: at,
  locale: null,
  statusEmails: false,
});
await insert('users', {
  id: 2,
  username: 'acme',
  passwordHash: await passwordHash('fixture-acme-pass'),
  fullName: 'Acme Imports',
  email: 'ops@acme.example',
  role: 'viewer',
  isActive: true,
  lastLogin: at,
  createdAt: at,
  updatedAt: at,
  locale: 'nl',
  statusEmails: true,
});
await insert('sessions', {
  id: createHash('sha256').update(SESSION_TOKEN).digest('hex'),
  userId: 2,
  createdAt: now,
  // The customer was signed in when the portal stopped for the upgrade (an older session would have gone idle).
  lastSeenAt: now,
  expiresAt: '2099-01-01 00:00:00.000 +00:00',
});
await insert('consignees', { id: 501, name: 'Acme Imports BV', createdAt: at, updatedAt: at });
await insert('consignee_assignments', { userId: 2, consigneeId: 501, createdAt: at });
for (const [id, status] of [
  [9001, 'In Transit'],
  [9002, 'Delivered'],
]) {
  await insert('receipts', {
    id,
    number: `WR-${id}`,
    receivedDate: at,
    shipperName: 'Globex',
    consigneeId: 501,
    consigneeName: 'Acme Imports BV',
    pieces: 2,
    totalWeightValue: 12.5,
    totalVolumeValue: 0.4,
    destination: 'Rotterdam',
    status,
    modeOfTransportation: 'Ocean',
    originName: 'Miami',
    searchText: `wr-${id} globex acme imports bv rotterdam`,
    providerUpdatedAt: at,
    numberSort: `wr-${id}`,
    shipperNameSort: 'globex',
    consigneeNameSort: 'acme imports bv',
    statusSort: status.toLowerCase(),
    destinationSort: 'rotterdam',
    modeOfTransportationSort: 'ocean',
    originNameSort: 'miami',
  });
  await insert('packages', {
    receiptId: id,
    position: 1,
    description: 'Pallet of spare parts',
    trackingNumber: `TRK${id}`,
    trackingKey: `trk${id}`,
    pieces: 2,
    totalWeightValue: 12.5,
    totalVolumeValue: 0.4,
  });
}
await insert('receipt_status_changes', { receiptId: 9002, status: 'In Transit', version: at, at });
await insert('receipt_status_changes', {
  receiptId: 9002,
  status: 'Delivered',
  version: '2026-03-02 09:00:00.000 +00:00',
  at: '2026-03-02 09:00:00.000 +00:00',
});
await insert('outbox', {
  userId: 2,
  recipient: 'ops@acme.example',
  subject: 'WR-9002 is Delivered',
  textBody: 'Delivered.',
  htmlBody: '<p>Delivered.</p>',
  attempts: 0,
  nextAttemptAt: '2099-01-01 00:00:00.000 +00:00',
  createdAt: at,
});
await insert('sync_state', {
  id: 1,
  cursor: null,
  lastSuccessAt: at,
  lastFullSyncAt: at,
  lastWritten: 2,
  lastDeleted: 0,
  mirrorVersion: 1,
});
await insert('branding_settings', { id: 1, cardOpacity: 0.75 });
await insert('provider_tokens', {
  id: 1,
  accessToken: encryptValue(tokenKey, 'fixture-access-token', 'accessToken'),
  refreshToken: encryptValue(tokenKey, 'fixture-refresh-token', 'refreshToken'),
  accessTokenExpiresAt: '2099-01-01 00:00:00.000 +00:00',
  refreshTokenExpiresAt: null,
  source: 'manual',
  updatedAt: at,
});
await sequelize.close();
await writeFile(SECRET_FILE, `${SECRET}\n`);
