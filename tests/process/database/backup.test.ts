/**
 * Backups that are known to restore: `npm run backup` copies a running portal while it takes writes,
 * `npm run restore` brings the copy back into a fresh folder, and the portal started there has the
 * users, assignments, receipts and branding (logo file included) of the copy, and its app secret.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  newPortalFolder,
  removePortalFolder,
  startPortal,
  testPostgresUrl,
  type Portal,
} from '../../support/portal';
import { pngFile } from '../../support/images';
import type { ApiClient } from '../../support/api-client';
import {
  allReceipts,
  assignConsignees,
  createUser,
  eventually,
  signIn,
  signedInAdmin,
  waitForMirror,
  type TestUser,
} from '../../support/api-steps';
import { fetchImage } from '../../support/branding-steps';
import { stallLimit } from '../../support/test-pace';

const ROOT = path.resolve(import.meta.dirname, '../../..');

interface ScriptRun {
  code: number | null;
  output: string;
}

/** Runs `npm run <script>` the way an operator does, with the configuration of a portal folder. */
function runScript(
  script: 'backup' | 'restore',
  args: string[],
  target: { databaseUrl: string; dir: string },
): Promise<ScriptRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [`scripts/${script}.mjs`, ...args], {
      cwd: ROOT,
      env: {
        ...process.env,
        DATABASE_URL: target.databaseUrl,
        UPLOADS_DIR: path.join(target.dir, 'uploads'),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, output }));
  });
}

async function uploadLogo(admin: ApiClient, portal: Portal, bytes: Buffer): Promise<number> {
  const form = new FormData();
  form.append('logo', new Blob([new Uint8Array(bytes)], { type: 'image/png' }), 'company-logo.png');
  const response = await fetch(`${portal.url}/api/logo/upload`, {
    method: 'POST',
    headers: { Origin: portal.url, Cookie: admin.cookie! },
    body: form,
  });
  return response.status;
}

/** In the restored portal no sync can run (its provider is unreachable): every receipt it shows came from the backup. */
const NO_PROVIDER = {
  PROVIDER: 'http',
  PROVIDER_URL: 'http://127.0.0.1:9/unreachable',
  DEMO_USERS: 'false',
};

let original: Portal;
let restored: Portal | undefined;
let backupDir: string;
let target: { dir: string; databaseUrl: string };

beforeAll(async () => {
  original = await startPortal({ SANDBOX_RECEIPTS: '300' });
  backupDir = await mkdtemp(path.join(tmpdir(), 'portal-backups-'));
  // Restored into as on a new machine: a database nothing has run on yet.
  target = await newPortalFolder({ empty: true });
});

afterAll(async () => {
  await original?.stop();
  if (restored) await restored.stop();
  else if (target) await removePortalFolder(target.dir);
  if (backupDir) await rm(backupDir, { recursive: true, force: true });
});

describe('backup and restore', () => {
  it(
    'when the portal is backed up while it takes writes and restored into a fresh folder, then the restored portal has its users, assignments, receipts and branding',
    async () => {
      const admin = await signedInAdmin(original);
      await waitForMirror(admin);
      await admin.post('/api/consignees/import');
      const consigneeIds = (
        (await admin.get('/api/consignees')).body.data as Array<{ id: number }>
      ).map((consignee) => consignee.id);
      const customer = await createUser(admin, 'klant');
      await assignConsignees(admin, customer.id, consigneeIds.slice(0, 2));
      const customerReceipts = (await allReceipts(await signIn(original, customer)))
        .map((receipt) => receipt.number)
        .sort();
      expect(customerReceipts.length).toBeGreaterThan(0);
      const logo = pngFile('company-logo.png', { width: 8, height: 8, rgb: [200, 30, 30] }).bytes;
      expect(await uploadLogo(admin, original, logo)).toBe(200);
      expect((await admin.put('/api/background/opacity', { opacity: 0.7 })).status).toBe(200);

      // Writes all through the backup: a user created, then given a consignee, again and again.
      const written: Array<{ user: TestUser; startedAt: number; at: number }> = [];
      let writing = true;
      const writer = (async () => {
        for (let index = 0; writing; index++) {
          const startedAt = performance.now();
          const user = await createUser(admin, `schrijver${index}`);
          await assignConsignees(admin, user.id, [consigneeIds[index % consigneeIds.length]!]);
          written.push({ user, startedAt, at: performance.now() });
        }
      })();
      // The backup starts while users are being written.
      await eventually(
        () => written.length,
        (count) => count >= 2,
      );
      const backupStartedAt = performance.now();
      const backup = await runScript('backup', [backupDir], original);
      const backupEndedAt = performance.now();
      writing = false;
      await writer;
      expect(backup.code, backup.output).toBe(0);
      expect(
        written.some((write) => write.startedAt < backupEndedAt && write.at > backupStartedAt),
      ).toBe(true);
      const [file] = await readdir(backupDir);
      expect(file).toMatch(/^portal-backup-.+\.tar\.gz$/);
      expect(backup.output.trim()).toBe(path.join(backupDir, file!));

      // The running portal's database is in use: restoring onto it is refused, and nothing is changed.
      const onRunning = await runScript(
        'restore',
        [path.join(backupDir, file!), '--force'],
        original,
      );
      expect(onRunning.code).toBe(1);
      expect(onRunning.output).toMatch(/is in use: stop the portal/);

      const restore = await runScript('restore', [path.join(backupDir, file!)], target);
      expect(restore.code, restore.output).toBe(0);
      // It holds password hashes, e-mail addresses and the encrypted tokens: readable by its owner only.
      if (!testPostgresUrl)
        expect((await stat(path.join(target.dir, 'portal.sqlite'))).mode & 0o777).toBe(0o600);
      restored = await startPortal(NO_PROVIDER, { dir: target.dir });

      const restoredAdmin = await signedInAdmin(restored);
      const restoredCustomer = await signIn(restored, customer);
      expect((await allReceipts(restoredCustomer)).map((receipt) => receipt.number).sort()).toEqual(
        customerReceipts,
      );
      const assignments = async (user: TestUser) =>
        (
          (await restoredAdmin.get(`/api/consignees/user/${user.id}`)).body.data as Array<{
            id: number;
          }>
        )
          .map((consignee) => consignee.id)
          .sort();
      expect(await assignments(customer)).toEqual(consigneeIds.slice(0, 2).sort());
      // Every write finished before the backup began is in it; a user is restored only with the state it had then.
      for (const write of written.filter((entry) => entry.at < backupStartedAt)) {
        await signIn(restored, write.user);
        expect((await assignments(write.user)).length).toBe(1);
      }

      const logoInfo = (await restoredAdmin.get('/api/logo/info')).body.data;
      expect(logoInfo).toMatchObject({
        hasLogo: true,
        originalName: 'company-logo.png',
        size: logo.length,
      });
      // Pages get the prepared variant; the admin downloads the original, byte for byte.
      const shown = await fetchImage(restoredAdmin, logoInfo.logoPath);
      expect(shown.status).toBe(200);
      expect(shown.headers.get('content-type')).toMatch(/^image\//);
      expect((await fetchImage(restoredAdmin, logoInfo.originalPath)).bytes.equals(logo)).toBe(
        true,
      );
      expect((await restoredAdmin.get('/api/background/info')).body.data).toMatchObject({
        opacity: 0.7,
      });
      if (!testPostgresUrl) {
        // With SQLite the secret lives beside the database; with PostgreSQL both portals read the same db/app-secret.
        expect(await readFile(path.join(target.dir, 'app-secret'), 'utf8')).toBe(
          await readFile(path.join(original.dir, 'app-secret'), 'utf8'),
        );
      }
    },
    stallLimit(240_000),
  );

  it('when the stopped target already holds data, then restore refuses without --force and replaces it with --force', async () => {
    const [file] = await readdir(backupDir);
    const backupFile = path.join(backupDir, file!);
    const restoredAdmin = await signedInAdmin(restored!);
    await createUser(restoredAdmin, 'nieuwkomer');
    await restored!.stop({ keepDir: true });

    const refused = await runScript('restore', [backupFile], target);
    expect(refused.code).toBe(1);
    expect(refused.output).toContain(
      `already holds data, which restoring replaces. To replace it, run again with --force: npm run restore -- ${backupFile} --force`,
    );

    const forced = await runScript('restore', [backupFile, '--force'], target);
    expect(forced.code, forced.output).toBe(0);
    restored = await startPortal(NO_PROVIDER, { dir: target.dir });
    const users = (await (await signedInAdmin(restored)).get('/api/auth/users')).body
      .data as Array<{ username: string }>;
    expect(users.map((user) => user.username)).toContain('klant');
    expect(users.map((user) => user.username)).not.toContain('nieuwkomer');
  });
});
