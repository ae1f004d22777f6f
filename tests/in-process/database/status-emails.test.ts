/**
 * Status e-mails through a real SMTP server: the opt-in, one digest per customer per
 * sync in their language, the one-click unsubscribe, and delivery that never holds up a sync.
 */
import type { ParsedMail } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInProcessPortal, type InProcessPortal } from '../../support/in-process';
import { startSmtpServer, type TestSmtpServer } from '../../support/smtp-server';
import { ApiClient } from '../../support/api-client';
import {
  assignConsignees,
  createUser,
  expectError,
  queryDatabase,
  signIn,
  signedInAdmin,
  waitForMirror,
  type TestUser,
  eventually,
} from '../../support/api-steps';
import { stallLimit } from '../../support/test-pace';

let portal: InProcessPortal;
let smtp: TestSmtpServer;
let admin: ApiClient;
let dutchCustomer: TestUser & { client: ApiClient };
let englishCustomer: TestUser & { client: ApiClient };
let quietCustomer: TestUser & { client: ApiClient };

/** A header as it was sent (mailparser folds List-* headers into one object). */
const header = (mail: ParsedMail, name: string) =>
  mail.headerLines
    .find((line) => line.key === name.toLowerCase())
    ?.line.slice(name.length + 1)
    .replace(/\r\n\s+/g, ' ')
    .trim();
const unsubscribeLink = (mail: ParsedMail) =>
  /^<(.+)>$/.exec(header(mail, 'List-Unsubscribe') ?? '')![1]!;
/** The four statuses the portal knows, as the Dutch catalogue names them; others stay as sent. */
/** The sandbox's statuses as a Dutch reader gets them (messages/nl.json). */
const dutchStatus = (status: string) =>
  ({
    'In-Transit': 'Onderweg',
    Delivered: 'Afgeleverd',
    'On-Hold': 'Aangehouden',
    Cancelled: 'Geannuleerd',
    Pending: 'In afwachting',
    Arrived: 'Aangekomen',
    'At destination': 'Op bestemming',
    'Received at MIA warehouse': 'Ontvangen in magazijn MIA',
    'Received at NL warehouse': 'Ontvangen in magazijn NL',
    'Received at SME warehouse': 'Ontvangen in magazijn SME',
  })[status] ?? status;

async function customer(name: string, email: string | null, consigneeIds: number[]) {
  const user = await createUser(admin, name);
  if (email === null)
    await admin.put(`/api/auth/users/${user.id}`, {
      username: name,
      fullName: `${name} name`,
      email: null,
      role: 'viewer',
      isActive: true,
    });
  if (consigneeIds.length > 0) await assignConsignees(admin, user.id, consigneeIds);
  return { ...user, client: await signIn(portal, user) };
}

beforeAll(async () => {
  smtp = await startSmtpServer();
  portal = await startInProcessPortal({
    SMTP_URL: smtp.url,
    MAIL_FROM: 'Freight Portal <status@portal.test>',
    SANDBOX_RECEIPTS: '150',
    SANDBOX_CONTROL: 'true',
    SYNC_INTERVAL_SECONDS: '1',
    SANDBOX_CHANGE_SECONDS: '86400',
  });
  admin = await signedInAdmin(portal);
  await waitForMirror(admin);
  expect((await admin.post('/api/consignees/import')).status).toBe(200);
  const consigneeIds = (
    (await admin.get('/api/consignees')).body.data as Array<{ id: number }>
  ).map((consignee) => consignee.id);
  dutchCustomer = await customer('nlklant', 'nlklant@example.com', consigneeIds);
  englishCustomer = await customer('enklant', 'enklant@example.com', consigneeIds);
  quietCustomer = await customer('stilleklant', 'stil@example.com', consigneeIds);
}, stallLimit(180_000));

afterAll(async () => {
  await portal?.stop();
  await smtp?.stop();
});

describe('the opt-in (PUT /api/auth/profile/preferences statusEmails)', () => {
  it('when nothing was chosen, then status e-mails are off', async () => {
    expect((await dutchCustomer.client.get('/api/auth/profile/preferences')).body.data).toEqual({
      locale: 'en',
      statusEmails: false,
    });
  });

  it('when a customer switches them on with a language, then both are stored and answered', async () => {
    const response = await dutchCustomer.client.put('/api/auth/profile/preferences', {
      locale: 'nl',
      statusEmails: true,
    });
    expect(response.body).toEqual({
      success: true,
      data: { locale: 'nl', statusEmails: true },
      message: 'Voorkeuren opgeslagen',
    });
    const english = await englishCustomer.client.put('/api/auth/profile/preferences', {
      statusEmails: true,
    });
    expect(english.body.data).toEqual({ locale: 'en', statusEmails: true });
  });

  it.each([['yes'], [1], [null]])(
    'when statusEmails is %j, then 400 VALIDATION_ERROR and nothing changes',
    async (value) => {
      expectError(
        await quietCustomer.client.put('/api/auth/profile/preferences', { statusEmails: value }),
        400,
        'VALIDATION_ERROR',
        'Status e-mails must be true or false',
      );
      expect(
        (await quietCustomer.client.get('/api/auth/profile/preferences')).body.data.statusEmails,
      ).toBe(false);
    },
  );

  it('when a user without an e-mail address switches them on, then 400 naming the field, and nothing changes', async () => {
    const noAddress = await customer('geenadres', null, []);
    const response = await noAddress.client.put(
      '/api/auth/profile/preferences',
      { statusEmails: true, locale: 'nl' },
      { headers: { 'Accept-Language': 'nl' } },
    );
    expectError(
      response,
      400,
      'VALIDATION_ERROR',
      'Voor statusmeldingen per e-mail is een e-mailadres in uw account nodig; vraag een beheerder dit toe te voegen',
    );
    expect(response.body.details).toEqual([
      { field: 'statusEmails', message: response.body.message },
    ]);
    expect((await noAddress.client.get('/api/auth/profile/preferences')).body.data).toEqual({
      locale: 'en',
      statusEmails: false,
    });
  });
});

describe('digests', () => {
  it('when a sync moves statuses, then each opted-in customer gets one digest in their language, with links and one-click unsubscribe', async () => {
    const before = smtp.messages.length;
    const { advanced } = (await admin.post('/sandbox/control/advance')).body as {
      advanced: number[];
    };
    expect(advanced.length).toBeGreaterThan(0);
    const mails = await eventually(
      () => smtp.messages.slice(before),
      (received) => received.length >= 2,
    );
    // Several more syncs, and the outbox empty again: still one digest each.
    for (let sync = 0; sync < 3; sync++) await portal.portal.syncRuns.syncReceipts();
    await eventually(
      () =>
        queryDatabase<{ waiting: number }>(
          portal,
          'SELECT COUNT(*) AS waiting FROM outbox WHERE sentAt IS NULL AND failedAt IS NULL',
        ),
      ([row]) => row!.waiting === 0,
    );
    const received = smtp.messages.slice(before);
    const to = (mail: (typeof received)[number]) =>
      (Array.isArray(mail.to) ? mail.to[0] : mail.to)?.value[0]?.address;
    expect(received.map(to).sort()).toEqual(['enklant@example.com', 'nlklant@example.com']);

    const dutch = received.find((mail) => to(mail) === 'nlklant@example.com')!;
    const english = received.find((mail) => to(mail) === 'enklant@example.com')!;
    expect(mails.length).toBe(2);
    expect(dutch.from?.value).toEqual([{ name: 'Freight Portal', address: 'status@portal.test' }]);
    expect(dutch.subject).toBe('Freight Portal: nieuwe status voor uw ontvangstbewijzen');
    expect(english.subject).toBe('Freight Portal: status update for your receipts');
    expect(dutch.text).toContain('De status van deze ontvangstbewijzen is gewijzigd:');
    expect(english.text).toContain('The status of these receipts has changed:');

    // Every line: number, old → new status (in the reader's language), and the receipt's own page.
    const lines = english.text!.split('\n').filter((line) => line.includes(' → '));
    expect(lines.length).toBeGreaterThan(0);
    const receipts = await Promise.all(
      [...english.text!.matchAll(/\/receipts\/(\d+)/g)].map(
        async ([, id]) => (await admin.get(`/api/receipts/${id}`)).body.data,
      ),
    );
    for (const receipt of receipts) {
      expect(english.text).toContain(
        `${receipt.number}: ${receipt.history.at(-2).status} → ${receipt.status}`,
      );
      expect(english.text).toContain(`${portal.url}/receipts/${receipt.id}`);
    }
    for (const receipt of receipts) {
      expect(dutch.text).toContain(
        `${receipt.number}: ${dutchStatus(receipt.history.at(-2).status)} → ${dutchStatus(receipt.status)}`,
      );
    }
    expect(dutch.html).toContain(`href="${portal.url}/receipts/`);

    for (const mail of [dutch, english]) {
      expect(header(mail, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
      expect(header(mail, 'List-Unsubscribe')).toMatch(
        new RegExp(`^<${portal.url}/email/unsubscribe/[^>]+>$`),
      );
    }
  });

  it('when the one-click link is opened, then it only asks; when the mail program posts it, then e-mails stop without sign-in', async () => {
    const mail = smtp.messages.find((message) => message.text?.includes('Beste nlklant name'))!;
    const link = unsubscribeLink(mail);

    // The page is in the e-mail's language, even in a browser that asks for English.
    const page = await fetch(link, { headers: { 'Accept-Language': 'en' } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Statusmeldingen uitzetten');
    expect(
      (await dutchCustomer.client.get('/api/auth/profile/preferences')).body.data.statusEmails,
    ).toBe(true);

    // One-click unsubscribe: a POST from the mail provider's servers, no Origin, no cookie.
    const oneClick = await fetch(link, {
      method: 'POST',
      body: 'List-Unsubscribe=One-Click',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expect(oneClick.status).toBe(200);
    expect(
      (await dutchCustomer.client.get('/api/auth/profile/preferences')).body.data.statusEmails,
    ).toBe(false);
  });

  it('when an unsubscribe link was tampered with, then 404 and nothing changes', async () => {
    const mail = smtp.messages.find((message) => message.text?.includes('Hello enklant name'))!;
    const link = unsubscribeLink(mail);
    const forged = link.replace(/\/u(\d+)\./, (_, id) => `/u${Number(id) + 1}.`);
    const response = await fetch(forged, {
      method: 'POST',
      body: 'List-Unsubscribe=One-Click',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expect(response.status).toBe(404);
    expect(
      (await englishCustomer.client.get('/api/auth/profile/preferences')).body.data.statusEmails,
    ).toBe(true);
  });

  it('when the SMTP server refuses, then the sync still succeeds and the message waits in the outbox with its error', async () => {
    smtp.refusing = true;
    try {
      const before = (
        await queryDatabase<{ lastSuccessAt: string }>(
          portal,
          'SELECT lastSuccessAt FROM sync_state WHERE id = 1',
        )
      )[0]!.lastSuccessAt;
      await admin.post('/sandbox/control/advance');
      const [waiting] = await eventually(
        () =>
          queryDatabase<{
            attempts: number;
            lastError: string;
            sentAt: string | null;
            nextAttemptAt: string;
          }>(
            portal,
            `SELECT attempts, lastError, sentAt, nextAttemptAt FROM outbox WHERE recipient = 'enklant@example.com' ORDER BY id DESC LIMIT 1`,
          ),
        ([row]) => (row?.attempts ?? 0) >= 1,
      );
      expect(waiting!.sentAt).toBeNull();
      expect(waiting!.lastError).toMatch(/451/);
      expect(Date.parse(waiting!.nextAttemptAt)).toBeGreaterThan(Date.now() + 20_000);
      const after = (
        await queryDatabase<{ lastSuccessAt: string }>(
          portal,
          'SELECT lastSuccessAt FROM sync_state WHERE id = 1',
        )
      )[0]!.lastSuccessAt;
      expect(after).not.toBe(before);
    } finally {
      smtp.refusing = false;
    }
  });

  it('when a customer uses the switch in Profile Settings without JavaScript, then it turns status e-mails back on', async () => {
    const page = (client: ApiClient) =>
      client.get('/profile').then((response) => response.body as string);
    expect(await page(dutchCustomer.client)).toContain('Statusmeldingen aanzetten');
    const form = await fetch(`${portal.url}/profile/status-emails`, {
      method: 'POST',
      redirect: 'manual',
      body: 'statusEmails=true',
      headers: {
        'Content-Type': 'application/x-www-form-urlencoded',
        Origin: portal.url,
        Cookie: dutchCustomer.client.cookie!,
      },
    });
    expect(form.status).toBe(303);
    expect(
      (await dutchCustomer.client.get('/api/auth/profile/preferences')).body.data.statusEmails,
    ).toBe(true);
    expect(await page(dutchCustomer.client)).toContain(
      'Aan: statusmeldingen gaan naar nlklant@example.com.',
    );

    const withoutAddress = await signIn(portal, {
      username: 'geenadres',
      password: 'geenadres-password',
    });
    const noAddressPage = await page(withoutAddress);
    expect(noAddressPage).toContain('Status e-mails need an e-mail address on your account');
    expect(noAddressPage).not.toContain('Turn on status e-mails');
  });

  it('when nobody else opted in, then admins and opted-out customers got nothing', () => {
    const recipients = smtp.messages.map(
      (mail) => (Array.isArray(mail.to) ? mail.to[0] : mail.to)?.value[0]?.address,
    );
    expect(recipients).not.toContain('stil@example.com');
    expect(
      recipients.every(
        (address) => address === 'nlklant@example.com' || address === 'enklant@example.com',
      ),
    ).toBe(true);
  });
});
