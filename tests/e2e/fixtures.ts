/**
 * Shared steps for browser tests: signing in through the real form, the admin's session (signed in once
 * per portal by auth.setup.ts), and arranging users through the real API as the admin (never by
 * touching the database).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  test as base,
  expect,
  type APIRequestContext,
  type Page,
  type PlaywrightWorkerArgs,
} from '@playwright/test';
import type { ConsigneeAssignmentDto, ImportResult } from '../../src/shared/consignees';
import { SESSION_COOKIE } from '../../src/shared/constants';
import { E2E_ADMIN_PASSWORD, E2E_URL, MAILBOX_URL } from '../support/e2e-env';

export { expect };
export const ADMIN = { username: 'admin', password: E2E_ADMIN_PASSWORD };

export interface NewUser {
  username: string;
  password: string;
  fullName?: string;
  email?: string;
  role: 'admin' | 'admin-viewer' | 'viewer';
}

let counter = 0;
/** A username no other test uses (tests share one portal). */
export function uniqueName(prefix: string): string {
  counter += 1;
  return `${prefix}${Date.now().toString(36)}${process.pid % 1000}${counter}`
    .toLowerCase()
    .slice(0, 30);
}

/**
 * Opens a page and waits until its islands have hydrated (Astro drops their `ssr` attribute then), so
 * that what the test does reaches React rather than the server-rendered HTML. An island that waits for
 * a person (`client:interaction`) is first reached with the pointer, as a person's first move would.
 */
export async function openHydrated(page: Page, path: string): Promise<void> {
  await page.goto(path);
  // Module scripts have run by the load event; without JavaScript the island element never exists.
  if (await page.evaluate(() => customElements.get('astro-island') === undefined)) return;
  await hydrateByPointer(page);
  await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
  // Astro drops `ssr` once React's hydration is scheduled, not done: a choice made in between can be
  // swallowed (React stops an event it cannot yet dispatch). The receipts island marks <html> once it
  // has hydrated (early-clicks.ts).
  if (await page.locator('[data-submit-on-change]').count())
    await expect(page.locator('html[data-receipts-hydrated]')).toHaveCount(1);
}

/** Moves the pointer over each island that hydrates at the first interaction and has not yet. */
export async function hydrateByPointer(page: Page): Promise<void> {
  for (const island of await page.locator('astro-island[client="interaction"]').all()) {
    // A corner of its first section: the search box in its middle answers before hydration and does not start it.
    if ((await island.getAttribute('ssr')) !== null)
      await island
        .locator('section')
        .first()
        .hover({ position: { x: 4, y: 4 } });
  }
}

/** Signs in through the form the way a person does, once its script runs (so the stored user is kept too). */
export async function signIn(page: Page, username: string, password: string): Promise<void> {
  await openHydrated(page, '/login');
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  // The shell's controls (the menu button) work once its module script has run, which it has by the
  // load event; a tap before it is lost (see prealerts.spec.ts).
  await page.waitForLoadState('load');
}

/** Where auth.setup.ts keeps the admin's signed-in browser state for the portal at `origin`. */
export function adminStatePath(origin: string): string {
  return path.join(process.env.E2E_RUN_DIR!, 'auth', `admin-${new URL(origin).port}.json`);
}

/**
 * Gives the page's browser the admin's session on the portal at `origin`; `page.request` then shares it.
 * The session cookie only: the browser is otherwise new (it has, say, no stylesheet in its cache).
 */
export async function signInAsAdmin(page: Page, origin = E2E_URL): Promise<void> {
  const state = JSON.parse(readFileSync(adminStatePath(origin), 'utf8')) as {
    cookies: Parameters<ReturnType<Page['context']>['addCookies']>[0];
  };
  await page.context().addCookies(state.cookies.filter((cookie) => cookie.name === SESSION_COOKIE));
}

/** An API client with the admin's session on the portal at `origin`. */
export function adminRequest(
  playwright: PlaywrightWorkerArgs['playwright'],
  origin: string,
): Promise<APIRequestContext> {
  return playwright.request.newContext({
    baseURL: origin,
    extraHTTPHeaders: { Origin: origin },
    storageState: adminStatePath(origin),
  });
}

export class AdminApi {
  constructor(
    private readonly request: APIRequestContext,
    private readonly baseURL: string,
  ) {}

  private headers() {
    return { Origin: this.baseURL };
  }

  async createUser(user: NewUser): Promise<{ id: number; username: string }> {
    const response = await this.request.post('/api/auth/users', {
      data: user,
      headers: this.headers(),
    });
    expect(response.status(), await response.text()).toBe(201);
    return (await response.json()).data.user;
  }

  /** Sets a new password as the admin does, which ends every session of the user. */
  async resetPassword(id: number, newPassword: string): Promise<void> {
    const response = await this.request.put(`/api/auth/users/${id}/reset-password`, {
      data: { newPassword },
      headers: this.headers(),
    });
    expect(response.status(), await response.text()).toBe(200);
  }

  async deleteUser(id: number): Promise<void> {
    const response = await this.request.delete(`/api/auth/users/${id}`, {
      headers: this.headers(),
    });
    expect(response.status(), await response.text()).toBe(200);
  }

  /** Pulls the consignees from the provider (the admin-area portal starts without them). */
  async importConsignees(): Promise<ImportResult> {
    const response = await this.request.post('/api/consignees/import', { headers: this.headers() });
    expect(response.status(), await response.text()).toBe(200);
    return (await response.json()).data;
  }

  /** Every consignee with its assigned users, by name. */
  async assignments(): Promise<ConsigneeAssignmentDto[]> {
    const response = await this.request.get('/api/consignees/assignments', {
      headers: this.headers(),
    });
    expect(response.status(), await response.text()).toBe(200);
    return (await response.json()).data;
  }

  async addUserToConsignee(consigneeId: number, userId: number): Promise<void> {
    const response = await this.request.post(`/api/consignees/${consigneeId}/add-user`, {
      data: { userId },
      headers: this.headers(),
    });
    expect(response.status(), await response.text()).toBe(200);
  }
}

export const test = base.extend<{ adminApi: AdminApi }>({
  adminApi: async ({ playwright, baseURL }, use) => {
    const request = await adminRequest(playwright, baseURL!);
    await use(new AdminApi(request, baseURL!));
    await request.dispose();
  },
});

/**
 * Holds the pages' scripts (`/_astro/*.js`) back, as a slow link would, until the returned function is
 * called. On the context, not the page: a page the service worker controls has it fetch the scripts,
 * and only the context's routes see the worker's requests.
 */
export async function holdScripts(page: Page): Promise<() => void> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.context().route('**/_astro/*.js', async (route) => {
    await released;
    await route.continue();
  });
  return release;
}

/** An e-mail as the test SMTP server's mailbox lists it (tests/support/smtp-server-main.ts). */
interface Mail {
  to: string;
  subject: string;
  text: string;
}

/** The link of the newest e-mail to `address` once there are `count` of them. */
export async function linkInMail(
  address: string,
  path: 'reset-password' | 'invite',
  count = 1,
): Promise<{ mail: Mail; link: string }> {
  let mails: Mail[] = [];
  await expect
    .poll(async () => {
      mails = ((await (await fetch(`${MAILBOX_URL}/messages`)).json()) as Mail[]).filter(
        (mail) => mail.to === address,
      );
      return mails.length;
    })
    .toBe(count);
  const mail = mails.at(-1)!;
  const link = new RegExp(`https?://\\S+/${path}/\\S+`).exec(mail.text)?.[0];
  if (!link) throw new Error(`no ${path} link in: ${mail.text}`);
  return { mail, link: new URL(link).pathname + new URL(link).search };
}
