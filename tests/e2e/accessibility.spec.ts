/**
 * Accessibility with no exceptions: every page, seen by the role that uses it, at a phone's and a
 * desktop's width, has no violation of WCAG 2.0/2.1 A and AA as axe checks them. Besides the rules axe
 * runs for those tags, its experimental rules of the same levels run too: among them
 * label-content-name-mismatch (an accessible name that does not contain the visible text), which
 * Lighthouse reports.
 */
import type { Page } from '@playwright/test';
import axe from 'axe-core';
import { Secret, TOTP } from 'otpauth';
import type { Receipt } from '../../src/shared/receipts';
import {
  ACCOUNTS_URL,
  ADMIN_AREA_URL,
  E2E_ADMIN_PASSWORD,
  E2E_URL,
  PASSKEYS_URL,
  TOKENS_URL,
} from '../support/e2e-env';
import {
  AdminApi,
  adminRequest,
  adminStatePath,
  expect,
  linkInMail,
  openHydrated,
  signInAsAdmin,
  test,
  uniqueName,
} from './fixtures';
import { findReceipt } from './receipts-data';
import { axeViolations } from './axe-steps';
import { addPasskeyByApi, signedInRequest } from './passkey-steps';

const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
/**
 * The rules of those levels, experimental ones included (a run by tag would leave them out), and
 * deprecated ones left out as a run by tag does: named one by one, they all run in a single pass.
 */
const WCAG_RULES = axe
  .getRules(WCAG_TAGS)
  .filter((rule) => !rule.tags.includes('deprecated'))
  .map((rule) => rule.ruleId);

const WIDTHS = [375, 1280];
const VIEWER_PASSWORD = 'axe-viewer-pass-1';

/** Each violation as 'rule: target (summary)', so that a failure says what and where. */
async function violations(page: Page): Promise<string[]> {
  return (await axeViolations(page, WCAG_RULES)).flatMap((violation) =>
    violation.nodes.map(
      (node) =>
        `${violation.id}: ${node.target.join(' ')} (${node.failureSummary?.replace(/\s+/g, ' ')})`,
    ),
  );
}

/** Soft: one run lists the violations of every page a test visits. */
async function expectNoViolations(page: Page, what: string): Promise<void> {
  // A modal or popup fading in shows blended colours: check what stays on screen, once transitions end
  // (endless and scroll-driven animations never do).
  await page.waitForFunction(() =>
    document.getAnimations().every((animation) => {
      const end = animation.effect?.getComputedTiming().endTime;
      return animation.playState !== 'running' || typeof end !== 'number' || end === Infinity;
    }),
  );
  expect.soft(await violations(page), `axe violations on ${what}`).toEqual([]);
}

async function signInWithApi(
  page: Page,
  origin: string,
  credentials: { username: string; password: string },
): Promise<void> {
  const response = await page
    .context()
    .request.post(`${origin}/api/auth/login`, { data: credentials, headers: { Origin: origin } });
  expect(response.status(), await response.text()).toBe(200);
}

/** Three wrong passwords, then a fourth in the form: the sign-in page warns that one attempt is left before the lock. */
async function lastAttemptBeforeTheLock(
  page: Page,
  texts: { username: string; password: string; signIn: string },
): Promise<void> {
  const username = uniqueName('axelock');
  for (let attempt = 1; attempt <= 3; attempt += 1) {
    const answer = await page.context().request.post(`${E2E_URL}/api/auth/login`, {
      data: { username, password: 'wrong-password' },
      headers: { Origin: E2E_URL },
    });
    expect(answer.status()).toBe(401);
  }
  await page.getByLabel(texts.username).fill(username);
  await page.getByLabel(texts.password, { exact: true }).fill('wrong-password');
  await page.getByRole('button', { name: texts.signIn }).click();
}

/** Makes the viewer's link to the receipt, replacing one made before: the receipt's page then says when it was made. */
async function shareReceipt(page: Page, id: number): Promise<string> {
  const made = await page
    .context()
    .request.post(`${E2E_URL}/api/receipts/${id}/share?replace=true`, {
      headers: { Origin: E2E_URL },
    });
  expect(made.status(), await made.text()).toBe(201);
  return ((await made.json()).data as { url: string }).url;
}

// A customer with the consignee of a receipt that has packages, so that View and the map both open
// (and a tracked one, for a pre-alert of it).
const viewer = { username: uniqueName('axe'), password: VIEWER_PASSWORD };
let receipt: Receipt;
let viewerConsigneeId: number;
// And the consignee of a receipt without packages, whose View is disabled with its reason.
let withoutPackages: Receipt;

test.beforeAll(async ({ playwright }) => {
  const request = await adminRequest(playwright, E2E_URL);
  const admin = new AdminApi(request, E2E_URL);
  await admin.importConsignees();
  receipt = await findReceipt(request, 'with a tracked package', (candidate) =>
    candidate.commodities.some((commodity) => commodity.trackingNumber),
  );
  const consignee = (await admin.assignments()).find(
    (row) => row.consignee.name === receipt.consigneeName,
  )?.consignee;
  expect(consignee, `consignee ${receipt.consigneeName}`).toBeDefined();
  viewerConsigneeId = consignee!.id;
  const user = await admin.createUser({ ...viewer, role: 'viewer' });
  await admin.addUserToConsignee(consignee!.id, user.id);
  withoutPackages = await findReceipt(
    request,
    'without packages',
    (candidate) => candidate.commodities.length === 0,
  );
  const second = (await admin.assignments()).find(
    (row) => row.consignee.name === withoutPackages.consigneeName,
  )!.consignee;
  if (second.id !== consignee!.id) await admin.addUserToConsignee(second.id, user.id);
  // The user list then shows every role's badge.
  await admin.createUser({
    username: uniqueName('axeav'),
    password: VIEWER_PASSWORD,
    role: 'admin-viewer',
  });
  await request.dispose();
});

for (const width of WIDTHS) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: 800 } });
    // axe takes 5 to 20 s over the receipts table on this 2-core machine, twice a page.
    test.slow();

    test('the sign-in page, and its warning before the lock', async ({ page }) => {
      await openHydrated(page, '/login');
      // The main portal sends no e-mail: whom to ask for a forgotten password.
      await expect(
        page.getByText('Forgot your password? Ask your administrator.', { exact: true }),
      ).toBeVisible();
      await expectNoViolations(page, '/login');
      await lastAttemptBeforeTheLock(page, {
        username: 'Username',
        password: 'Password',
        signIn: 'Sign in',
      });
      await expect(page.getByRole('alert')).toHaveText(
        /^Invalid username or password\. 1 attempt left: /,
      );
      await expectNoViolations(page, '/login with 1 attempt left');
    });

    test('the pages of a forgotten password and an invitation', async ({ page, playwright }) => {
      const request = await adminRequest(playwright, ACCOUNTS_URL);
      const username = uniqueName('axeinvite');
      const invited = await request.post('/api/auth/users', {
        data: { username, email: `${username}@example.com`, role: 'viewer', invite: true },
      });
      expect(invited.status(), await invited.text()).toBe(201);
      await request.dispose();
      const { link } = await linkInMail(`${username}@example.com`, 'invite');
      for (const path of ['/login', '/forgot-password', '/reset-password/no-such-link', link]) {
        await openHydrated(page, `${ACCOUNTS_URL}${path}`);
        await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
        await expectNoViolations(page, path);
      }
    });

    test('two-factor sign-in: the setup in Profile Settings and the sign-in page asking for the code', async ({
      page,
      adminApi,
    }) => {
      const user = { username: uniqueName('axetfa'), password: VIEWER_PASSWORD };
      await adminApi.createUser({ ...user, role: 'viewer' });
      await signInWithApi(page, E2E_URL, user);
      await openHydrated(page, '/profile');
      await page.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
      const secret = (await page.getByLabel('Setup key').textContent())!.replace(/\s/g, '');
      await expect(page.getByRole('button', { name: 'Copy setup key' })).toBeVisible();
      await expect(page.getByRole('link', { name: 'Open in authenticator app' })).toBeVisible();
      await expectNoViolations(page, '/profile setting up two-factor sign-in');
      await page.getByLabel('Code from your app').fill(
        TOTP.generate({
          secret: Secret.fromBase32(secret),
          algorithm: 'SHA1',
          digits: 6,
          period: 30,
        }),
      );
      await page.getByRole('button', { name: 'Turn on' }).click();
      await expect(page.getByRole('list', { name: 'Your recovery codes' })).toBeVisible();
      await expectNoViolations(page, '/profile with the recovery codes');

      await page.context().clearCookies();
      await signInWithApi(page, E2E_URL, user);
      await openHydrated(page, '/login');
      await expect(page.getByLabel('Authentication code')).toBeVisible();
      await expectNoViolations(page, '/login asking for the code');
    });

    test('passkeys: the sign-in page offering one, Profile Settings listing them, renaming and removing one, and User Management', async ({
      page,
      playwright,
    }) => {
      await openHydrated(page, `${PASSKEYS_URL}/login`);
      await expect(page.getByRole('button', { name: 'Sign in with a passkey' })).toBeVisible();
      await expectNoViolations(page, '/login offering a passkey');
      const admin = await signedInRequest(playwright, PASSKEYS_URL, {
        username: 'admin',
        password: E2E_ADMIN_PASSWORD,
      });
      const user = { username: uniqueName('axepk'), password: VIEWER_PASSWORD };
      expect(
        (await admin.post('/api/auth/users', { data: { ...user, role: 'viewer' } })).status(),
      ).toBe(201);
      await admin.dispose();
      const customer = await signedInRequest(playwright, PASSKEYS_URL, user);
      await addPasskeyByApi(customer, PASSKEYS_URL, VIEWER_PASSWORD, 'My phone');
      await customer.dispose();
      await signInWithApi(page, PASSKEYS_URL, user);
      await openHydrated(page, `${PASSKEYS_URL}/profile`);
      const list = page.getByRole('list', { name: 'Your passkeys' });
      await expect(list.getByText('My phone', { exact: true })).toBeVisible();
      await expectNoViolations(page, '/profile with a passkey');
      await list.getByRole('button', { name: 'Rename the passkey My phone' }).click();
      await expect(list.getByLabel('Name')).toBeVisible();
      await expectNoViolations(page, '/profile renaming a passkey');
      await list.getByRole('button', { name: 'Cancel' }).click();
      await list.getByRole('button', { name: 'Remove the passkey My phone' }).click();
      await expect(page.getByRole('dialog')).toBeVisible();
      await expectNoViolations(page, '/profile removing a passkey');
      await page.keyboard.press('Escape');

      await signInWithApi(page, PASSKEYS_URL, { username: 'admin', password: E2E_ADMIN_PASSWORD });
      await openHydrated(page, `${PASSKEYS_URL}/admin/users`);
      await page.getByRole('button', { name: `Remove all passkeys of ${user.username}` }).click();
      await expect(page.getByRole('dialog')).toBeVisible();
      await expectNoViolations(page, '/admin/users removing all passkeys of a user');
    });

    test("a customer's dashboard, receipts, locations, profile and webhooks", async ({ page }) => {
      await signInWithApi(page, E2E_URL, viewer);
      await page.goto('/dashboard');
      await expect(
        page.getByRole('region', { name: 'Top Consignees' }).getByRole('listitem'),
      ).not.toHaveCount(0);
      await expectNoViolations(page, '/dashboard');

      await openHydrated(page, '/receipts');
      await expect(page.getByText(/^Showing 1 to /)).toBeVisible();
      await expectNoViolations(page, '/receipts');
      // A receipt without packages: its View disabled, the reason beside it, and its status history offered.
      await page
        .getByRole('searchbox', { name: 'Search', exact: true })
        .fill(withoutPackages.number);
      await page.getByRole('searchbox', { name: 'Search', exact: true }).press('Enter');
      // The search's answer first: until it comes, the unfiltered page shows several such rows.
      await expect(page.getByRole('button', { name: 'View' })).toHaveCount(1);
      await expect(page.getByRole('button', { name: 'View' })).toHaveAccessibleDescription(
        'No packages yet',
      );
      await expectNoViolations(page, '/receipts with a receipt without packages');

      for (const path of ['/locations', '/profile', '/profile/webhooks']) {
        await openHydrated(page, path);
        await expectNoViolations(page, path);
      }
    });

    test('API tokens in Profile Settings: a new token shown once, and the revoke confirmation', async ({
      page,
    }) => {
      await signInWithApi(page, E2E_URL, viewer);
      await openHydrated(page, '/profile');
      await page.getByLabel('Token name').fill(`Accessibility check at ${width} px`);
      await page.getByRole('button', { name: 'Create token' }).click();
      await expect(page.getByRole('textbox', { name: 'New API token' })).toHaveValue(/^fp_/);
      await expectNoViolations(page, '/profile with a new API token');
      await page
        .getByRole('button', { name: `Revoke the API token Accessibility check at ${width} px` })
        .click();
      await expect(page.getByRole('dialog', { name: 'Revoke API token' })).toBeVisible();
      await expectNoViolations(page, 'the API token revoke confirmation');
    });

    test("a receipt's share link, signed out, and one that no longer works", async ({
      page,
      browser,
    }) => {
      await signInWithApi(page, E2E_URL, viewer);
      const url = await shareReceipt(page, receipt.id);
      const context = await browser.newContext({ viewport: { width, height: 800 } });
      const visitor = await context.newPage();
      await visitor.goto(url);
      await expect(
        visitor.getByRole('heading', { name: 'Shipment status', level: 1 }),
      ).toBeVisible();
      await expectNoViolations(visitor, '/t/<token>');
      await visitor.goto(`${E2E_URL}/t/${'x'.repeat(43)}`);
      await expect(
        visitor.getByRole('heading', { name: 'This link no longer works', level: 1 }),
      ).toBeVisible();
      await expectNoViolations(visitor, '/t/<unknown token>');
      await context.close();
    });

    test("a customer's pre-alerts, the form with its problems, a receipt's pre-alert, and the admin's pre-alerts", async ({
      page,
      browser,
    }) => {
      await signInWithApi(page, E2E_URL, viewer);
      const { request } = page.context();
      const waiting = await request.post(`${E2E_URL}/api/prealerts`, {
        headers: { Origin: E2E_URL },
        multipart: {
          carrier: 'fedex',
          trackingNumber: uniqueName('AXE').toUpperCase(),
          shipper: 'Walmart',
          description: 'Garden hose',
          declaredValue: '24.50',
          consigneeId: String(viewerConsigneeId),
          invoice: {
            name: 'invoice.pdf',
            mimeType: 'application/pdf',
            buffer: Buffer.from('%PDF-1.4\n%%EOF\n'),
          },
        },
      });
      expect(waiting.status(), await waiting.text()).toBe(201);
      // Its package is here: Received at once (made once; at the other width it is there already).
      const tracked = receipt.commodities.find(
        (commodity) => commodity.trackingNumber,
      )!.trackingNumber!;
      const data = {
        carrier: 'ups',
        trackingNumber: tracked,
        shipper: 'Best Buy',
        description: 'Headphones',
        declaredValue: 89.99,
        consigneeId: viewerConsigneeId,
      };
      expect([201, 409]).toContain(
        (
          await request.post(`${E2E_URL}/api/prealerts`, { headers: { Origin: E2E_URL }, data })
        ).status(),
      );

      await openHydrated(page, '/prealerts');
      await expect(page.getByRole('heading', { name: 'Your pre-alerts' })).toBeVisible();
      await expectNoViolations(page, '/prealerts');
      await openHydrated(page, '/prealerts/new');
      await page.getByRole('button', { name: 'Save pre-alert' }).click();
      await expect(page.getByRole('alert')).toHaveText('Please correct the fields marked below.');
      await expectNoViolations(page, '/prealerts/new with its problems');
      await openHydrated(page, `/receipts/${receipt.id}`);
      await expect(page.getByRole('list', { name: 'Pre-alerted by the customer' })).toBeVisible();
      await expectNoViolations(page, '/receipts/{id} with its pre-alert');

      const context = await browser.newContext({
        viewport: { width, height: 800 },
        storageState: adminStatePath(E2E_URL),
      });
      const admin = await context.newPage();
      for (const state of ['stale', 'unmatched-receipts', 'matched']) {
        await openHydrated(admin, `${E2E_URL}/admin/prealerts?state=${state}`);
        await expect(admin.getByRole('heading', { name: 'Pre-alerts', level: 1 })).toBeVisible();
        await expectNoViolations(admin, `/admin/prealerts?state=${state}`);
      }
      await context.close();
    });

    test("a customer's receipts with a search, the details modal and the tracking map modal", async ({
      page,
    }) => {
      await signInWithApi(page, E2E_URL, viewer);
      await openHydrated(page, `/receipts?search=${encodeURIComponent(receipt.number)}`);
      await expect(page.getByText(`Search: ${receipt.number}`, { exact: true })).toBeVisible();
      await expectNoViolations(page, '/receipts with a search chip');
      // Below 1024 px each cell's name starts with its column's label: find the row by its text.
      const row = page
        .getByRole('region', { name: 'Receipts' })
        .getByRole('row')
        .filter({ hasText: receipt.number });
      await row.getByRole('link', { name: 'View' }).click();
      const details = page.getByRole('dialog', { name: 'Receipt Details' });
      await expect(details.getByRole('list', { name: 'Status History' })).toBeVisible();
      await expectNoViolations(page, 'the receipt details modal');
      await details.getByRole('button', { name: 'Close' }).click();
      await expect(details).toBeHidden();

      await row.getByRole('button', { name: receipt.status, exact: true }).click();
      const map = page.getByRole('dialog', { name: 'Tracking Details' });
      await expect(map.locator('.leaflet-container')).toBeVisible();
      await expect(map.getByRole('status', { name: 'Loading map' })).toBeHidden();
      await expectNoViolations(page, 'the tracking map modal');
    });

    test("a receipt's photos and documents: on its page, in the details modal, and a photo opened larger", async ({
      page,
    }) => {
      await signInWithApi(page, E2E_URL, viewer);
      // Shared already: the page says when the link was made, and a new one shows its address once.
      await shareReceipt(page, receipt.id);
      await page.goto(`/receipts/${receipt.id}`);
      await expect(
        page
          .getByRole('region', { name: 'Photos and documents' })
          .getByRole('list', { name: 'Package photos' }),
      ).toBeVisible();
      await expect(page.getByText(/^You already shared this receipt: /)).toBeVisible();
      await expectNoViolations(page, `/receipts/${receipt.id} with its photos, shared`);
      await page.getByRole('button', { name: 'Make a new link' }).click();
      await expect(page.getByRole('textbox', { name: 'Share link' })).toHaveValue(/\/t\//);
      await expectNoViolations(page, `/receipts/${receipt.id} with a new share link`);

      await openHydrated(page, `/receipts?search=${encodeURIComponent(receipt.number)}`);
      const row = page
        .getByRole('region', { name: 'Receipts' })
        .getByRole('row')
        .filter({ hasText: receipt.number });
      await row.getByRole('link', { name: 'View' }).click();
      const details = page.getByRole('dialog', { name: 'Receipt Details' });
      const photos = details.getByRole('list', { name: 'Package photos' });
      await photos.scrollIntoViewIfNeeded();
      await expect(photos.getByRole('img').first()).toBeVisible();
      await expectNoViolations(page, 'the receipt details modal with photos');
      await photos.getByRole('link').first().click();
      await expect(
        page.getByRole('dialog', { name: /^Photo 1 of \d+$/ }).getByRole('img'),
      ).toBeVisible();
      await expectNoViolations(page, 'a photo opened larger');
    });

    test("the admin's user and branding pages", async ({ page }) => {
      // On the main portal, whose branding stays the default: the branding tests change the admin-area portal's.
      await signInAsAdmin(page, E2E_URL);
      for (const path of ['/admin/users', '/admin/logo', '/admin/background', '/admin/activity']) {
        await openHydrated(page, path);
        await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
        await expectNoViolations(page, path);
      }
    });

    test("the admin's consignee assignments", async ({ page, playwright }) => {
      // A consignee with a user of this test's own, so that the grid shows assigned users' badges too.
      const admin = new AdminApi(await adminRequest(playwright, ADMIN_AREA_URL), ADMIN_AREA_URL);
      await admin.importConsignees();
      const { consignee } = (await admin.assignments())[0]!;
      const user = await admin.createUser({
        username: uniqueName('axeas'),
        password: VIEWER_PASSWORD,
        role: 'viewer',
      });
      await admin.addUserToConsignee(consignee.id, user.id);

      await signInAsAdmin(page, ADMIN_AREA_URL);
      await openHydrated(page, `${ADMIN_AREA_URL}/admin/user-consignees`);
      await expect(
        page.getByRole('table', { name: 'Consignee assignments' }).getByRole('row'),
      ).not.toHaveCount(0);
      await expectNoViolations(page, '/admin/user-consignees');
      await page.getByLabel('Search consignees').fill(consignee.name);
      await expect(
        page.getByRole('list', { name: `Users of ${consignee.name}` }).getByRole('listitem'),
      ).not.toHaveCount(0);
      await expectNoViolations(page, '/admin/user-consignees with an assigned user');

      await admin.deleteUser(user.id);
    });

    test("the admin's token management", async ({ page }) => {
      await signInAsAdmin(page, TOKENS_URL);
      await openHydrated(page, `${TOKENS_URL}/admin/tokens`);
      await expect(page.getByRole('heading', { name: 'Token Management', level: 1 })).toBeVisible();
      await expectNoViolations(page, '/admin/tokens');
    });

    test.describe('in Dutch', () => {
      test.use({ locale: 'nl-NL' });

      // The screens of a newcomer's rough edges, in the other language's words (the accessible names must hold the visible text).
      test('the warning before the lock, a receipt without packages, a shared receipt, two-factor setup and the pre-alert form', async ({
        page,
      }) => {
        await openHydrated(page, '/login');
        await lastAttemptBeforeTheLock(page, {
          username: 'Gebruikersnaam',
          password: 'Wachtwoord',
          signIn: 'Inloggen',
        });
        await expect(page.getByRole('alert')).toHaveText(
          /^Gebruikersnaam of wachtwoord is onjuist\. Nog 1 poging: /,
        );
        await expect(
          page.getByText('Wachtwoord vergeten? Vraag het uw beheerder.', { exact: true }),
        ).toBeVisible();
        await expectNoViolations(page, '/login with 1 attempt left, in Dutch');

        await signInWithApi(page, E2E_URL, viewer);
        await openHydrated(page, `/receipts?search=${encodeURIComponent(withoutPackages.number)}`);
        await expect(page.getByRole('button', { name: 'Bekijken' })).toHaveAccessibleDescription(
          'Nog geen pakketten',
        );
        await expectNoViolations(page, '/receipts with a receipt without packages, in Dutch');

        await shareReceipt(page, receipt.id);
        await openHydrated(page, `/receipts/${receipt.id}`);
        await expect(page.getByText(/^U hebt dit ontvangstbewijs al gedeeld: /)).toBeVisible();
        await expectNoViolations(page, '/receipts/{id} shared, in Dutch');

        await openHydrated(page, '/profile');
        await page.getByRole('button', { name: 'Tweestapsverificatie instellen' }).click();
        await expect(page.getByRole('link', { name: 'Openen in authenticator-app' })).toBeVisible();
        await expectNoViolations(page, '/profile setting up two-factor sign-in, in Dutch');

        await openHydrated(page, '/prealerts/new');
        await expect(page.getByLabel('Factuur (optioneel)')).toBeVisible();
        await expectNoViolations(page, '/prealerts/new, in Dutch');
      });
    });
  });
}

// The sweep above passes only while the check finds what it looks for: a rule of the levels checked, and
// an experimental one of them (which a run by tag would leave out).
test('the check finds a WCAG violation and an experimental rule’s violation put on a page', async ({
  page,
}) => {
  await openHydrated(page, '/login');
  await page.evaluate(() =>
    document
      .querySelector('main')!
      .insertAdjacentHTML(
        'beforeend',
        '<img src="/favicon.svg" width="16" height="16"><button type="button" aria-label="Close">Open the menu</button>',
      ),
  );
  const found = await violations(page);
  expect(found.filter((violation) => violation.startsWith('image-alt: '))).toHaveLength(1);
  expect(
    found.filter((violation) => violation.startsWith('label-content-name-mismatch: ')),
  ).toHaveLength(1);
});
