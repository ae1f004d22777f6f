/**
 * Every screen fits its screen: at 390 px and 1280 px, in English and in Dutch, as a customer and as the
 * admin, no page is wider than the window, and no element of the main content is cut off by a box
 * that hides what overflows it (a box that scrolls keeps it reachable). A screenshot of each screen a
 * check finds wrong is kept with the test's results; `LAYOUT_SCREENSHOTS=all` keeps one of every screen,
 * to look them over.
 */
import type { APIRequestContext, Page, PlaywrightWorkerArgs, TestInfo } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import type { DashboardStats, Receipt } from '../../src/shared/receipts';
import {
  ACCOUNTS_URL,
  ADMIN_AREA_URL,
  E2E_ADMIN_PASSWORD,
  LOCATIONS_OFF_URL,
  PASSKEYS_URL,
} from '../support/e2e-env';
import { pngImage } from '../support/images';
import {
  adminRequest,
  adminStatePath,
  expect,
  hydrateByPointer,
  test,
  uniqueName,
} from './fixtures';
import { findReceipt } from './receipts-data';
import { axeViolations } from './axe-steps';
import { addPasskeyByApi, signedInRequest } from './passkey-steps';

test.use({ baseURL: ADMIN_AREA_URL });

const SCREENS = [
  { name: 'phone', viewport: { width: 390, height: 844 } },
  { name: 'desktop', viewport: { width: 1280, height: 900 } },
];
const LANGUAGES = ['en-US', 'nl-NL'];
/** On the portal that sends e-mail, where sign-in links to the forgotten password. */
const SIGNED_OUT_PAGES = ['/login', '/forgot-password', '/reset-password/no-such-link'];
const CUSTOMER_PAGES = [
  '/dashboard',
  '/receipts',
  '/locations',
  '/profile',
  '/profile/webhooks',
  '/prealerts',
  '/prealerts/new',
];
const ADMIN_PAGES = [
  ...CUSTOMER_PAGES,
  '/admin/users',
  '/admin/user-consignees',
  '/admin/tokens',
  '/admin/logo',
  '/admin/background',
  '/admin/activity',
  '/admin/prealerts',
  '/admin/prealerts?state=unmatched-receipts',
  '/admin/prealerts?state=matched',
];
const PASSWORD = 'layout-pass-1';

async function json<T>(request: APIRequestContext, path: string): Promise<T> {
  const response = await request.get(path);
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()).data;
}

/** A user with two-factor sign-in on, so that User Management offers to turn it off. */
async function twoFactorUser(playwright: PlaywrightWorkerArgs['playwright']): Promise<void> {
  const admin = await adminRequest(playwright, ADMIN_AREA_URL);
  const username = uniqueName('layouttfa');
  expect(
    (
      await admin.post('/api/auth/users', {
        data: { username, password: PASSWORD, role: 'viewer' },
      })
    ).status(),
  ).toBe(201);
  await admin.dispose();
  const user = await playwright.request.newContext({
    baseURL: ADMIN_AREA_URL,
    extraHTTPHeaders: { Origin: ADMIN_AREA_URL },
  });
  expect(
    (await user.post('/api/auth/login', { data: { username, password: PASSWORD } })).status(),
  ).toBe(200);
  const { secret } = await (
    await user.post('/api/auth/2fa/setup')
  )
    .json()
    .then((body) => body.data as { secret: string });
  const code = TOTP.generate({
    secret: Secret.fromBase32(secret),
    algorithm: 'SHA1',
    digits: 6,
    period: 30,
  });
  expect((await user.post('/api/auth/2fa/enable', { data: { code } })).status()).toBe(200);
  // And an API token, so that User Management offers to revoke it.
  expect(
    (
      await user.post('/api/auth/tokens', { data: { name: 'Layout check', expiresInDays: 30 } })
    ).status(),
  ).toBe(201);
  await user.dispose();
}

/** A customer with the three consignees that have the most receipts and an API token; its session cookie. */
async function customerSession(
  playwright: PlaywrightWorkerArgs['playwright'],
): Promise<{ name: string; value: string }> {
  const admin = await adminRequest(playwright, ADMIN_AREA_URL);
  expect((await admin.post('/api/consignees/import')).status()).toBe(200);
  const top = (await json<DashboardStats>(admin, '/api/receipts/stats')).topConsignees.slice(0, 3);
  const consignees = (
    await json<Array<{ id: number; name: string }>>(admin, '/api/consignees')
  ).filter((consignee) => top.some((entry) => entry.name === consignee.name));
  const username = uniqueName('layout');
  const created = await admin.post('/api/auth/users', {
    data: { username, password: PASSWORD, role: 'viewer' },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { id } = (await created.json()).data.user;
  for (const consignee of consignees)
    expect(
      (
        await admin.post(`/api/consignees/${consignee.id}/add-user`, { data: { userId: id } })
      ).status(),
    ).toBe(200);
  // A request context of its own: signing in where the admin's session is would end that session.
  const customer = await playwright.request.newContext({
    baseURL: ADMIN_AREA_URL,
    extraHTTPHeaders: { Origin: ADMIN_AREA_URL },
  });
  const signedIn = await customer.post('/api/auth/login', {
    data: { username, password: PASSWORD },
  });
  expect(signedIn.status()).toBe(200);
  // Profile Settings then lists a token, with its revoke confirmation to check.
  expect(
    (
      await customer.post('/api/auth/tokens', {
        data: { name: 'Stock system of the layout check', expiresInDays: 365 },
      })
    ).status(),
  ).toBe(201);
  await prealertsOf(customer, admin, consignees);
  await customer.dispose();
  await admin.dispose();
  const cookie = signedIn
    .headers()
    ['set-cookie']!.split('\n')
    .find((line) => line.startsWith('portal_session='))!;
  const [name, value] = cookie.split(';')[0]!.split('=');
  return { name: name!, value: value! };
}

/** A delivered receipt with photos and its proof of delivery, of the customer's (the three consignees with the most receipts). */
async function receiptWithAttachments(
  playwright: PlaywrightWorkerArgs['playwright'],
): Promise<Receipt> {
  const admin = await adminRequest(playwright, ADMIN_AREA_URL);
  const top = (await json<DashboardStats>(admin, '/api/receipts/stats')).topConsignees
    .slice(0, 3)
    .map((entry) => entry.name);
  const receipt = await findReceipt(
    admin,
    'delivered, with packages, of a consignee with the most receipts',
    (candidate) =>
      candidate.status === 'Delivered' &&
      candidate.commodities.length >= 2 &&
      top.includes(candidate.consigneeName),
  );
  await admin.dispose();
  return receipt;
}

/** A receipt of the customer's without packages, whose View is disabled with its reason. */
async function receiptWithoutPackages(
  playwright: PlaywrightWorkerArgs['playwright'],
): Promise<Receipt> {
  const admin = await adminRequest(playwright, ADMIN_AREA_URL);
  const top = (await json<DashboardStats>(admin, '/api/receipts/stats')).topConsignees
    .slice(0, 3)
    .map((entry) => entry.name);
  const receipt = await findReceipt(
    admin,
    'without packages, of a consignee with the most receipts',
    (candidate) => candidate.commodities.length === 0 && top.includes(candidate.consigneeName),
  );
  await admin.dispose();
  return receipt;
}

/** A webhook endpoint of the customer's, with a long address, so that Webhooks shows its list and its modals. */
async function webhookEndpoint(
  playwright: PlaywrightWorkerArgs['playwright'],
  session: { name: string; value: string },
): Promise<void> {
  const customer = await playwright.request.newContext({
    baseURL: ADMIN_AREA_URL,
    extraHTTPHeaders: { Origin: ADMIN_AREA_URL, Cookie: `${session.name}=${session.value}` },
  });
  const url =
    'https://hooks.customer-systems.example.com/integrations/freight-portal/receipts/webhook-receiver-endpoint';
  const created = await customer.post('/api/webhooks', {
    data: { url, events: ['receipt.created', 'receipt.status_changed', 'prealert.matched'] },
  });
  expect(created.status(), await created.text()).toBe(201);
  await customer.dispose();
}

/**
 * The customer's pre-alerts, for their pages and the admin's: one waiting with a long description and
 * its invoice, and one whose package is here already (the same one each time: made once).
 */
async function prealertsOf(
  customer: APIRequestContext,
  admin: APIRequestContext,
  consignees: Array<{ id: number; name: string }>,
): Promise<void> {
  const waiting = await customer.post('/api/prealerts', {
    multipart: {
      carrier: 'amazon',
      trackingNumber: uniqueName('TBA').toUpperCase(),
      shipper: 'Amazon.com Services LLC Marketplace Seller Fulfilment',
      description:
        'Kitchen appliances: a stand mixer with its bowls, a set of knives and two cast-iron pans for the new restaurant',
      declaredValue: '1234.56',
      consigneeId: String(consignees[0]!.id),
      invoice: {
        name: 'amazon-order-113-5557777-1234567-invoice.pdf',
        mimeType: 'application/pdf',
        buffer: Buffer.from('%PDF-1.4\n%%EOF\n'),
      },
    },
  });
  expect(waiting.status(), await waiting.text()).toBe(201);
  const names = new Set(consignees.map((consignee) => consignee.name));
  const receipts = await json<
    Array<{ consigneeName: string; commodities: Array<{ trackingNumber: string | null }> }>
  >(admin, '/api/receipts?limit=100');
  const arrived = receipts.find(
    (receipt) =>
      names.has(receipt.consigneeName) &&
      receipt.commodities.some((commodity) => commodity.trackingNumber),
  )!;
  const received = await customer.post('/api/prealerts', {
    data: {
      carrier: 'ups',
      trackingNumber: arrived.commodities.find((commodity) => commodity.trackingNumber)!
        .trackingNumber,
      shipper: 'Best Buy',
      description: 'Headphones',
      declaredValue: 89.99,
      consigneeId: consignees.find((consignee) => consignee.name === arrived.consigneeName)!.id,
    },
  });
  expect([201, 409], await received.text()).toContain(received.status());
}

/** What overflows: the page's width beyond the window, and each element a hiding box cuts off. */
function overflows(
  page: Page,
): Promise<{ pageWidth: number; windowWidth: number; cutOff: string[]; widest: string[] }> {
  return page.evaluate(() => {
    const describe = (element: Element) =>
      `${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ''} "${(element.textContent ?? '').trim().slice(0, 40)}"`;
    const cutOff: string[] = [];
    for (const element of document.querySelectorAll('main *')) {
      const box = element.getBoundingClientRect();
      if (box.width === 0 || box.height === 0 || getComputedStyle(element).visibility === 'hidden')
        continue;
      for (let ancestor = element.parentElement; ancestor; ancestor = ancestor.parentElement) {
        const overflowX = getComputedStyle(ancestor).overflowX;
        if (overflowX === 'auto' || overflowX === 'scroll') break;
        if (overflowX !== 'hidden' && overflowX !== 'clip') continue;
        const frame = ancestor.getBoundingClientRect();
        if (box.right > frame.right + 1 || box.left < frame.left - 1)
          cutOff.push(describe(element));
        break;
      }
    }
    // A table's last column (its actions) in view inside the box it scrolls in, without scrolling.
    for (const table of document.querySelectorAll('main table')) {
      const frame = (
        table.closest('.overflow-x-auto') ?? table.parentElement!
      ).getBoundingClientRect();
      for (const cell of table.querySelectorAll('tr > :last-child')) {
        const box = cell.getBoundingClientRect();
        if (box.width > 0 && (box.right > frame.right + 1 || box.left < frame.left - 1))
          cutOff.push(`out of view: ${describe(cell)}`);
      }
    }
    // A status badge shows whole, in two lines at most.
    for (const badge of document.querySelectorAll('main table [data-tracking-map]')) {
      const style = getComputedStyle(badge);
      const lines =
        (badge.getBoundingClientRect().height -
          parseFloat(style.paddingTop) -
          parseFloat(style.paddingBottom)) /
        parseFloat(style.lineHeight);
      if (Math.round(lines) > 2) cutOff.push(`${Math.round(lines)} lines: ${describe(badge)}`);
      for (const box of [badge, badge.closest('td')!])
        if (box.scrollWidth > box.clientWidth + 1) cutOff.push(`clipped: ${describe(box)}`);
    }
    // Over a background photo a row is as opaque all across as its pinned first and last cells: each
    // cell's backgrounds, up to the body (where the photo is), cover it alike.
    // A computed colour's alpha: rgba(r, g, b, a), or `/ a` in the other notations, else opaque.
    const alpha = (colour: string) => {
      const match = /^rgba\(.*,\s*([\d.]+)\)$/.exec(colour) ?? /\/\s*([\d.]+%?)\s*\)$/.exec(colour);
      if (colour === 'transparent') return 0;
      return match ? parseFloat(match[1]!) / (match[1]!.endsWith('%') ? 100 : 1) : 1;
    };
    const cover = (element: Element) => {
      let through = 1;
      for (let box: Element | null = element; box && box !== document.body; box = box.parentElement)
        through *= 1 - alpha(getComputedStyle(box).backgroundColor);
      return 1 - through;
    };
    for (const row of document.querySelectorAll('main table tr')) {
      const cells = [...row.children].filter((cell) => cell.getBoundingClientRect().width > 0);
      if (cells.length < 2 || getComputedStyle(cells[0]!).position !== 'sticky') continue;
      const pinned = cover(cells[0]!);
      for (const cell of cells)
        if (Math.abs(cover(cell) - pinned) > 0.001)
          cutOff.push(
            `see-through (${cover(cell).toFixed(2)} against ${pinned.toFixed(2)}): ${describe(cell)}`,
          );
    }
    // The innermost elements reaching past the window's right edge: what makes a page too wide.
    const pastEdge = [...document.querySelectorAll('body *')].filter(
      (element) => element.getBoundingClientRect().right > innerWidth + 1,
    );
    const widest = pastEdge
      .filter((element) => !pastEdge.some((other) => other !== element && element.contains(other)))
      .map(describe);
    return {
      pageWidth: document.documentElement.scrollWidth,
      windowWidth: innerWidth,
      cutOff,
      widest,
    };
  });
}

/**
 * Checks each page in turn; where `onPage` has steps for a page (its modals, a state to show), they
 * follow its check on the same page load.
 */
async function checkPages(
  page: Page,
  paths: string[],
  testInfo: TestInfo,
  onPage: Record<string, () => Promise<void>> = {},
): Promise<void> {
  // A page renamed in `paths` must not drop its modals' checks unnoticed.
  expect(Object.keys(onPage).filter((path) => !paths.includes(path))).toEqual([]);
  for (const path of paths) {
    await checkPage(page, path, testInfo);
    await onPage[path]?.();
  }
}

async function checkPage(page: Page, path: string, testInfo: TestInfo): Promise<void> {
  await page.goto(path);
  await hydrateByPointer(page);
  await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
  await checkShown(page, path, testInfo);
}

/**
 * Whether every screen's screenshot is kept, or only those of screens a check found wrong: a full-page
 * screenshot is Chromium's work that nobody reads once every check passed.
 */
const EVERY_SCREENSHOT = process.env.LAYOUT_SCREENSHOTS === 'all';

/**
 * Keeps a screenshot of the window (or the whole page) as `name`, when a check since `errorsBefore`
 * failed or every one is kept: as JPEG, which Chromium takes a third less time over than PNG, and reads
 * as well.
 */
async function keepScreenshot(
  page: Page,
  name: string,
  testInfo: TestInfo,
  { errorsBefore, fullPage }: { errorsBefore: number; fullPage: boolean },
): Promise<void> {
  if (!EVERY_SCREENSHOT && testInfo.errors.length === errorsBefore) return;
  await testInfo.attach(`${name}.jpg`, {
    body: await page.screenshot({ fullPage, type: 'jpeg', quality: 80 }),
    contentType: 'image/jpeg',
  });
}

/** Checks the page as it is now (after a step on it), named `what`. */
async function checkShown(page: Page, what: string, testInfo: TestInfo): Promise<void> {
  await expect(page.getByRole('status', { name: /loading|laden/i })).toHaveCount(0);
  const errorsBefore = testInfo.errors.length;
  const found = await overflows(page);
  expect
    .soft(
      found.pageWidth,
      `${what}: the page is wider than the window, by ${found.widest.join(', ')}`,
    )
    .toBeLessThanOrEqual(found.windowWidth);
  expect.soft(found.cutOff, `${what}: cut off, out of view or too tall`).toEqual([]);
  await keepScreenshot(page, what.slice(1).replaceAll('/', '-'), testInfo, {
    errorsBefore,
    fullPage: true,
  });
}

/** The texts the checks look for, in each language (messages/*.json). */
const TEXTS = {
  'en-US': {
    close: 'Close',
    view: 'View',
    addUser: 'Add User',
    edit: /^Edit /,
    resetPassword: /^Reset password for /,
    deleteUser: /^Delete /,
    clearTokens: 'Clear Tokens',
    selectRow: /^Select (?!Page$)/,
    removeAll: 'Remove All',
    deleteLogo: 'Delete Logo',
    deleteBackground: 'Delete Background',
    resetTwoFactor: /^Turn off two-factor sign-in for /,
    tokenName: 'Token name',
    createToken: 'Create token',
    newToken: 'New API token',
    revokeApiToken: /^Revoke the API token /,
    revokeApiTokens: /^Revoke the API tokens of /,
    webhookLog: /^Delivery log of /,
    webhookDelete: /^Delete https:/,
    search: 'Search',
    noPackages: 'No packages yet',
    setUpTwoFactor: 'Set up two-factor sign-in',
    copySetupKey: 'Copy setup key',
    openInApp: 'Open in authenticator app',
    shareExists: /^You already shared this receipt: your link was made on /,
    shareReplace: 'Make a new link',
    shareLink: 'Share link',
    username: 'Username',
    password: 'Password',
    signIn: 'Sign in',
    lastAttempt: /^Invalid username or password\. 1 attempt left: /,
    askAdmin: 'Forgot your password? Ask your administrator.',
    passkeySignIn: 'Sign in with a passkey',
    renamePasskey: /^Rename the passkey /,
    removePasskey: /^Remove the passkey /,
    removePasskeys: /^Remove all passkeys of /,
    passkeyName: 'Name',
  },
  'nl-NL': {
    close: 'Sluiten',
    view: 'Bekijken',
    addUser: 'Gebruiker toevoegen',
    edit: / bewerken$/,
    resetPassword: /^Wachtwoord van /,
    deleteUser: / verwijderen$/,
    clearTokens: 'Tokens wissen',
    selectRow: /(?<!^Pagina) selecteren$/,
    removeAll: 'Alle ontkoppelen',
    deleteLogo: 'Logo verwijderen',
    deleteBackground: 'Achtergrond verwijderen',
    resetTwoFactor: /^Tweestapsverificatie uitzetten voor /,
    tokenName: 'Naam van het token',
    createToken: 'Token maken',
    newToken: 'Nieuw API-token',
    revokeApiToken: /^Het API-token .* intrekken$/,
    revokeApiTokens: /^De API-tokens van .* intrekken$/,
    webhookLog: /^Afleverlogboek van /,
    webhookDelete: /^https:.* verwijderen$/,
    search: 'Zoeken',
    noPackages: 'Nog geen pakketten',
    setUpTwoFactor: 'Tweestapsverificatie instellen',
    copySetupKey: 'Instelsleutel kopiëren',
    openInApp: 'Openen in authenticator-app',
    shareExists: /^U hebt dit ontvangstbewijs al gedeeld: uw link is gemaakt op /,
    shareReplace: 'Nieuwe link maken',
    shareLink: 'Deellink',
    username: 'Gebruikersnaam',
    password: 'Wachtwoord',
    signIn: 'Inloggen',
    lastAttempt: /^Gebruikersnaam of wachtwoord is onjuist\. Nog 1 poging: /,
    askAdmin: 'Wachtwoord vergeten? Vraag het uw beheerder.',
    passkeySignIn: 'Inloggen met een passkey',
    renamePasskey: /^Naam van de passkey .* wijzigen$/,
    removePasskey: /^De passkey .* verwijderen$/,
    removePasskeys: /^Alle passkeys van .* verwijderen$/,
    passkeyName: 'Naam',
  },
} as const;

/** Opens a modal with `open`, checks it fits the window with its Close at the top in view, and closes it with Escape. */
async function checkModal(
  page: Page,
  name: string,
  open: () => Promise<void>,
  texts: (typeof TEXTS)[keyof typeof TEXTS],
  testInfo: TestInfo,
) {
  await open();
  const dialog = page.getByRole('dialog');
  await expect(dialog, name).toBeVisible();
  await expect(page.getByRole('status', { name: /loading|laden/i })).toHaveCount(0);
  const errorsBefore = testInfo.errors.length;
  const fit = await page.evaluate(() => {
    const box = document.querySelector('dialog[open] .modal-box')!;
    const { left, right, top, bottom } = box.getBoundingClientRect();
    return {
      left,
      right,
      top,
      bottom,
      scrollWidth: box.scrollWidth,
      clientWidth: box.clientWidth,
      windowWidth: innerWidth,
      windowHeight: innerHeight,
    };
  });
  // On a desktop the window keeps clear of the screen's top and bottom edges.
  if (fit.windowWidth >= 1024) {
    expect.soft(fit.top, `${name}: room above`).toBeGreaterThanOrEqual(16);
    expect.soft(fit.bottom, `${name}: room below`).toBeLessThanOrEqual(fit.windowHeight - 16);
  }
  expect.soft(fit.left, `${name}: the window's left edge`).toBeGreaterThanOrEqual(0);
  expect.soft(fit.right, `${name}: the window's right edge`).toBeLessThanOrEqual(fit.windowWidth);
  expect
    .soft(fit.scrollWidth, `${name}: wider than its window`)
    .toBeLessThanOrEqual(fit.clientWidth + 1);
  await expect
    .soft(
      dialog.getByRole('button', { name: texts.close, exact: true }),
      `${name}: Close at the top`,
    )
    .toBeInViewport();
  // Its actions (Cancel and the confirming button) in view too, without scrolling the window.
  const actions = dialog.locator('.modal-action');
  if ((await actions.count()) > 0)
    await expect.soft(actions.last(), `${name}: its actions`).toBeInViewport();
  await keepScreenshot(page, name, testInfo, { errorsBefore, fullPage: false });
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
}

for (const screen of SCREENS) {
  for (const locale of LANGUAGES) {
    test.describe(`${screen.name}, ${locale}`, () => {
      test.use({ viewport: screen.viewport, locale });

      test('every signed-out page fits', async ({ browser }, testInfo) => {
        const context = await browser.newContext({
          baseURL: ACCOUNTS_URL,
          viewport: screen.viewport,
          locale,
        });
        const page = await context.newPage();
        for (const path of SIGNED_OUT_PAGES) await checkPage(page, path, testInfo);
        // On a portal without e-mail: the warning that one attempt is left before the lock (three wrong
        // passwords, then a fourth in the form), and whom to ask for a forgotten password.
        const texts = TEXTS[locale as keyof typeof TEXTS];
        await page.goto(`${ADMIN_AREA_URL}/login`);
        await hydrateByPointer(page);
        const username = uniqueName('layoutlock');
        for (let attempt = 1; attempt <= 3; attempt += 1) {
          const answer = await context.request.post(`${ADMIN_AREA_URL}/api/auth/login`, {
            data: { username, password: 'wrong-password' },
            headers: { Origin: ADMIN_AREA_URL },
          });
          expect(answer.status()).toBe(401);
        }
        await page.getByLabel(texts.username).fill(username);
        await page.getByLabel(texts.password, { exact: true }).fill('wrong-password');
        await page.getByRole('button', { name: texts.signIn }).click();
        await expect(page.getByRole('alert')).toHaveText(texts.lastAttempt);
        await expect(page.getByText(texts.askAdmin, { exact: true })).toBeVisible();
        await checkShown(page, '/login-last-attempt-without-email', testInfo);
        await context.close();
      });

      test('the passkey screens fit: the sign-in page, Profile Settings with passkeys, and User Management', async ({
        browser,
        playwright,
      }, testInfo) => {
        const texts = TEXTS[locale as keyof typeof TEXTS];
        const context = await browser.newContext({
          baseURL: PASSKEYS_URL,
          viewport: screen.viewport,
          locale,
        });
        const page = await context.newPage();
        await checkPage(page, '/login', testInfo);
        await expect(page.getByRole('button', { name: texts.passkeySignIn })).toBeVisible();
        // A customer with two passkeys, one with a long name.
        const admin = await signedInRequest(playwright, PASSKEYS_URL, {
          username: 'admin',
          password: E2E_ADMIN_PASSWORD,
        });
        const user = { username: uniqueName('layoutpk'), password: PASSWORD };
        expect(
          (await admin.post('/api/auth/users', { data: { ...user, role: 'viewer' } })).status(),
        ).toBe(201);
        await admin.dispose();
        const customer = await signedInRequest(playwright, PASSKEYS_URL, user);
        await addPasskeyByApi(
          customer,
          PASSKEYS_URL,
          PASSWORD,
          'The phone in the office of the warehouse in Paramaribo',
        );
        await addPasskeyByApi(customer, PASSKEYS_URL, PASSWORD, 'Laptop');
        await customer.dispose();
        expect(
          (
            await context.request.post('/api/auth/login', {
              data: user,
              headers: { Origin: PASSKEYS_URL },
            })
          ).status(),
        ).toBe(200);
        await checkPage(page, '/profile', testInfo);
        await checkModal(
          page,
          'remove-passkey',
          () => page.getByRole('button', { name: texts.removePasskey }).first().click(),
          texts,
          testInfo,
        );
        await page.getByRole('button', { name: texts.renamePasskey }).first().click();
        await expect(page.getByLabel(texts.passkeyName, { exact: true })).toBeVisible();
        await checkShown(page, '/profile-renaming-a-passkey', testInfo);
        // The admin's User Management: the passkeys badge and the removal of all of a user's.
        expect(
          (
            await context.request.post('/api/auth/login', {
              data: { username: 'admin', password: E2E_ADMIN_PASSWORD },
              headers: { Origin: PASSKEYS_URL },
            })
          ).status(),
        ).toBe(200);
        await checkPage(page, '/admin/users', testInfo);
        await checkModal(
          page,
          'remove-passkeys',
          () => page.getByRole('button', { name: texts.removePasskeys }).first().click(),
          texts,
          testInfo,
        );
        await context.close();
      });

      test('every page fits, as a customer', async ({ browser, playwright }, testInfo) => {
        const session = await customerSession(playwright);
        await webhookEndpoint(playwright, session);
        const context = await browser.newContext({
          baseURL: ADMIN_AREA_URL,
          viewport: screen.viewport,
          locale,
        });
        await context.addCookies([{ ...session, url: ADMIN_AREA_URL }]);
        const page = await context.newPage();
        const texts = TEXTS[locale as keyof typeof TEXTS];
        const withoutPackages = await receiptWithoutPackages(playwright);
        await checkPages(page, CUSTOMER_PAGES, testInfo, {
          '/receipts': async () => {
            // The longest status in Dutch was among those the page's check measured whole (a status always shows whole).
            if (locale === 'nl-NL')
              await expect(
                page
                  .locator('main table [data-tracking-map]')
                  .filter({ hasText: /^Ontvangen in magazijn / }),
              ).not.toHaveCount(0);
            await checkModal(
              page,
              'receipt-details',
              () => page.getByRole('link', { name: texts.view, exact: true }).first().click(),
              texts,
              testInfo,
            );
            await checkModal(
              page,
              'tracking-map',
              () => page.locator('[data-tracking-map]').first().click(),
              texts,
              testInfo,
            );
            // A receipt without packages, found with the search: its disabled View with the reason beside it.
            await page
              .getByRole('searchbox', { name: texts.search, exact: true })
              .fill(withoutPackages.number);
            await page.getByRole('searchbox', { name: texts.search, exact: true }).press('Enter');
            const row = page
              .getByRole('region', { name: /^(Receipts|Ontvangstbewijzen)$/ })
              .getByRole('row')
              .filter({ hasText: withoutPackages.number });
            await expect(
              row.getByRole('button', { name: texts.view, exact: true }),
            ).toHaveAccessibleDescription(texts.noPackages);
            await expect(row.getByText(texts.noPackages, { exact: true })).toBeVisible();
            await checkShown(page, '/receipts-without-packages', testInfo);
          },
          // The invoice field is daisyUI's file input, as tall and bordered as the form's other fields.
          '/prealerts/new': async () => {
            const styles = await page.evaluate(() => {
              const form = document.querySelector('[data-prealert-form]')!;
              const of = (element: Element) => {
                const style = getComputedStyle(element);
                return {
                  height: style.height,
                  border: `${style.borderTopWidth} ${style.borderTopStyle} ${style.borderTopColor}`,
                  radius: style.borderTopLeftRadius,
                };
              };
              return {
                file: of(form.querySelector('input[type=file]')!),
                text: of(form.querySelector('input.input')!),
              };
            });
            expect
              .soft(styles.file, 'the invoice field styled as the other fields')
              .toEqual(styles.text);
          },
          // Profile Settings with a new API token shown once, its long value in a field, and a token's revoke confirmation.
          '/profile': async () => {
            await page.getByLabel(texts.tokenName).fill('A token made while checking the layout');
            await page.getByRole('button', { name: texts.createToken }).click();
            await expect(page.getByRole('textbox', { name: texts.newToken })).toHaveValue(/^fp_/);
            await checkShown(page, '/profile-new-api-token', testInfo);
            await checkModal(
              page,
              'revoke-api-token',
              () => page.getByRole('button', { name: texts.revokeApiToken }).first().click(),
              texts,
              testInfo,
            );
            // Two-factor setup on a phone: its key, Copy, and the link that opens the authenticator app.
            await page.getByRole('button', { name: texts.setUpTwoFactor }).click();
            await expect(page.getByRole('button', { name: texts.copySetupKey })).toBeVisible();
            await expect(page.getByRole('link', { name: texts.openInApp })).toHaveAttribute(
              'href',
              /^otpauth:\/\//,
            );
            await checkShown(page, '/profile-two-factor-setup', testInfo);
          },
          '/profile/webhooks': async () => {
            await checkModal(
              page,
              'webhook-log',
              () => page.getByRole('button', { name: texts.webhookLog }).first().click(),
              texts,
              testInfo,
            );
            await checkModal(
              page,
              'webhook-delete',
              () => page.getByRole('button', { name: texts.webhookDelete }).first().click(),
              texts,
              testInfo,
            );
          },
        });
        // A receipt with photos and documents: its page, shared already (the date its link was made), then a
        // new link made (its address shown once); and its details modal once they have loaded.
        const withAttachments = await receiptWithAttachments(playwright);
        const shared = await context.request.post(`/api/receipts/${withAttachments.id}/share`, {
          headers: { Origin: ADMIN_AREA_URL },
        });
        expect(shared.status(), await shared.text()).toBe(201);
        await checkPage(page, `/receipts/${withAttachments.id}`, testInfo);
        await expect(page.getByText(texts.shareExists)).toBeVisible();
        await page.getByRole('button', { name: texts.shareReplace }).click();
        await expect(page.getByRole('textbox', { name: texts.shareLink })).toHaveValue(/\/t\//);
        await checkShown(page, '/receipt-share-link-made', testInfo);
        await checkPage(
          page,
          `/receipts?search=${encodeURIComponent(withAttachments.number)}`,
          testInfo,
        );
        await checkModal(
          page,
          'receipt-details-attachments',
          async () => {
            await page.getByRole('link', { name: texts.view, exact: true }).first().click();
            await expect(page.getByRole('dialog').locator('a[href$="size=large"]')).not.toHaveCount(
              0,
            );
          },
          texts,
          testInfo,
        );
        await context.close();
      });

      test('every page fits, as the admin', async ({ browser, playwright }, testInfo) => {
        // Sixteen pages and nine modals, each measured and photographed.
        test.slow();
        // Consignees to assign, and users besides the admin to open the modals of.
        await customerSession(playwright);
        await twoFactorUser(playwright);
        const context = await browser.newContext({
          baseURL: ADMIN_AREA_URL,
          viewport: screen.viewport,
          locale,
          storageState: adminStatePath(ADMIN_AREA_URL),
        });
        const page = await context.newPage();
        const texts = TEXTS[locale as keyof typeof TEXTS];
        await checkPages(page, ADMIN_PAGES, testInfo, {
          '/admin/users': async () => {
            await checkModal(
              page,
              'add-user',
              () => page.getByRole('button', { name: texts.addUser, exact: true }).first().click(),
              texts,
              testInfo,
            );
            await checkModal(
              page,
              'edit-user',
              () => page.getByRole('button', { name: texts.edit }).first().click(),
              texts,
              testInfo,
            );
            await checkModal(
              page,
              'reset-password',
              () => page.getByRole('button', { name: texts.resetPassword }).first().click(),
              texts,
              testInfo,
            );
            // Another user's: one's own Delete is not offered. Escape cancels each confirmation: nothing changes.
            await checkModal(
              page,
              'delete-user',
              () =>
                page
                  .getByRole('button', { name: texts.deleteUser, disabled: false })
                  .first()
                  .click(),
              texts,
              testInfo,
            );
            await checkModal(
              page,
              'reset-two-factor',
              () => page.getByRole('button', { name: texts.resetTwoFactor }).first().click(),
              texts,
              testInfo,
            );
            await checkModal(
              page,
              'revoke-api-tokens',
              () => page.getByRole('button', { name: texts.revokeApiTokens }).first().click(),
              texts,
              testInfo,
            );
          },
          '/admin/user-consignees': async () => {
            await checkModal(
              page,
              'user-picker',
              () => page.getByRole('button', { name: texts.addUser, exact: true }).first().click(),
              texts,
              testInfo,
            );
            await page.getByRole('checkbox', { name: texts.selectRow }).first().check();
            await checkModal(
              page,
              'remove-all',
              () =>
                page
                  .getByRole('toolbar')
                  .getByRole('button', { name: texts.removeAll, exact: true })
                  .click(),
              texts,
              testInfo,
            );
          },
          '/admin/tokens': async () => {
            await checkModal(
              page,
              'clear-tokens',
              () => page.getByRole('button', { name: texts.clearTokens, exact: true }).click(),
              texts,
              testInfo,
            );
          },
        });
        await context.close();
      });
    });
  }
}

/** The background photo's one colour: near white, the worst behind the dark theme's light text. */
const PHOTO_RGB: [number, number, number] = [240, 240, 240];

/**
 * Text whose contrast fails WCAG AA over the background photo. axe cannot see into a photo (over one it
 * leaves contrast undecided); this one is a single colour, so the body takes that colour instead for
 * axe to measure: a scrim behind text straight on the page.
 */
async function contrastOverPhoto(page: Page): Promise<string[]> {
  await page.evaluate(
    (colour) => {
      if (!getComputedStyle(document.body).backgroundImage.includes('url('))
        throw new Error('no background photo on the page');
      document.body.style.backgroundImage = 'none';
      document.body.style.backgroundColor = colour;
    },
    `rgb(${PHOTO_RGB.join(' ')})`,
  );
  return (await axeViolations(page, ['color-contrast'])).flatMap((violation) =>
    violation.nodes.map(
      (node) => `${node.target.join(' ')} (${node.failureSummary?.replace(/\s+/g, ' ')})`,
    ),
  );
}

/**
 * The logo and the background photo on the SHOW_LOCATIONS=false portal, unless they are there already:
 * the tests below share them, side by side, and none takes them away while another looks
 * (tests/e2e/portals.teardown.ts does once every test has run).
 */
async function brandLocationsOff(playwright: PlaywrightWorkerArgs['playwright']): Promise<void> {
  const admin = await adminRequest(playwright, LOCATIONS_OFF_URL);
  for (const kind of ['logo', 'background'] as const) {
    const info = await json<{ hasLogo?: boolean; hasBackground?: boolean }>(
      admin,
      `/api/${kind}/info`,
    );
    if (info.hasLogo || info.hasBackground) continue;
    const answer = await admin.post(`/api/${kind}/upload`, {
      multipart: {
        [kind]: {
          name: `${kind}.png`,
          mimeType: 'image/png',
          buffer: pngImage({
            width: 400,
            height: 120,
            rgb: kind === 'background' ? PHOTO_RGB : [20, 90, 200],
          }),
        },
      },
    });
    expect(answer.status(), await answer.text()).toBe(200);
  }
  await admin.dispose();
}

// The logo's and the background's delete confirmations need an upload: on a portal no other test's
// branding depends on, one test per screen and language. Over the background photo, the dashboard and
// the receipts keep their text's contrast and their rows opaque.
for (const screen of SCREENS) {
  for (const locale of LANGUAGES) {
    test(`the logo and background delete confirmations fit, and text over the photo keeps its contrast, ${screen.name}, ${locale}`, async ({
      browser,
      playwright,
    }, testInfo) => {
      await brandLocationsOff(playwright);
      const texts = TEXTS[locale as keyof typeof TEXTS];
      const context = await browser.newContext({
        baseURL: LOCATIONS_OFF_URL,
        viewport: screen.viewport,
        locale,
        storageState: adminStatePath(LOCATIONS_OFF_URL),
      });
      const page = await context.newPage();
      await checkPage(page, '/admin/logo', testInfo);
      await checkModal(
        page,
        `delete-logo-${screen.name}-${locale}`,
        () => page.getByRole('button', { name: texts.deleteLogo, exact: true }).click(),
        texts,
        testInfo,
      );
      await checkPage(page, '/admin/background', testInfo);
      await checkModal(
        page,
        `delete-background-${screen.name}-${locale}`,
        () => page.getByRole('button', { name: texts.deleteBackground, exact: true }).click(),
        texts,
        testInfo,
      );
      for (const path of ['/dashboard', '/receipts']) {
        await checkPage(page, path, testInfo);
        expect
          .soft(
            await contrastOverPhoto(page),
            `${path} over the photo, ${screen.name}, ${locale}: contrast`,
          )
          .toEqual([]);
      }
      await context.close();
    });
  }
}
