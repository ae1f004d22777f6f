/**
 * Which language the portal speaks (README.md "Languages"): the preferences API, the switcher's plain
 * form post, and the order preference → cookie → Accept-Language → English, on API answers and pages.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInProcessPortal, type InProcessPortal } from '../support/in-process';
import { ApiClient } from '../support/api-client';
import {
  createUser,
  expectError,
  queryDatabase,
  signIn,
  signedInAdmin,
  type TestUser,
} from '../support/api-steps';

let portal: InProcessPortal;
let admin: ApiClient;
let customer: TestUser;

beforeAll(async () => {
  portal = await startInProcessPortal();
  admin = await signedInAdmin(portal);
  customer = await createUser(admin, 'taalklant');
});

afterAll(async () => {
  await portal?.stop();
});

const dutch = { 'Accept-Language': 'nl-NL,nl;q=0.9' };
const savedLocale = async (username: string) =>
  (
    await queryDatabase<{ locale: string | null }>(
      portal,
      'SELECT locale FROM users WHERE username = ?',
      [username],
    )
  )[0]!.locale;

/** The switcher as a browser without JavaScript posts it. */
function postSwitcher(
  client: ApiClient | null,
  fields: Record<string, string>,
  headers: Record<string, string> = {},
) {
  const body = new URLSearchParams(fields).toString();
  const cookie: Record<string, string> = client?.cookie ? { Cookie: client.cookie } : {};
  return fetch(`${portal.url}/language`, {
    method: 'POST',
    redirect: 'manual',
    body,
    headers: {
      'Content-Type': 'application/x-www-form-urlencoded',
      Origin: portal.url,
      ...cookie,
      ...headers,
    },
  });
}

describe('GET/PUT /api/auth/profile/preferences', () => {
  it("when nobody is signed in, then 401 in the browser's language", async () => {
    const response = await new ApiClient(portal).get('/api/auth/profile/preferences', {
      headers: dutch,
    });
    expectError(response, 401, 'AUTHENTICATION_ERROR', 'U moet ingelogd zijn');
    expectError(
      await new ApiClient(portal).get('/api/auth/profile/preferences'),
      401,
      'AUTHENTICATION_ERROR',
      'Authentication required',
    );
  });

  it('when nothing is saved, then the language in effect for the request is reported', async () => {
    const client = await signIn(portal, customer);
    expect((await client.get('/api/auth/profile/preferences')).body).toEqual({
      success: true,
      data: { locale: 'en', statusEmails: false },
    });
    expect((await client.get('/api/auth/profile/preferences', { headers: dutch })).body).toEqual({
      success: true,
      data: { locale: 'nl', statusEmails: false },
    });
    expect(await savedLocale(customer.username)).toBeNull();
  });

  it('when Dutch is saved, then it is stored, answered in Dutch, and every later answer speaks Dutch whatever the browser asks', async () => {
    const client = await signIn(portal, customer);
    const saved = await client.put('/api/auth/profile/preferences', { locale: 'nl' });
    expect(saved.status).toBe(200);
    expect(saved.body).toEqual({
      success: true,
      data: { locale: 'nl', statusEmails: false },
      message: 'Voorkeuren opgeslagen',
    });
    expect(await savedLocale(customer.username)).toBe('nl');

    expect(
      (await client.get('/api/auth/profile/preferences', { headers: { 'Accept-Language': 'en' } }))
        .body.data,
    ).toEqual({
      locale: 'nl',
      statusEmails: false,
    });
    const profile = await client.get('/api/auth/profile', { headers: { 'Accept-Language': 'en' } });
    expect(profile.body.data.user).toMatchObject({ username: customer.username, locale: 'nl' });
    const refused = await client.get('/api/auth/users', {
      headers: { 'Accept-Language': 'en', Cookie: `${client.cookie}; portal_locale=en` },
    });
    expectError(refused, 403, 'FORBIDDEN', 'U hebt geen toestemming om dit te doen');

    // The next sign-in reports it too, and its own message is in the saved language.
    const again = await new ApiClient(portal).post('/api/auth/login', {
      username: customer.username,
      password: customer.password,
    });
    expect(again.body).toMatchObject({
      success: true,
      message: 'U bent ingelogd',
      data: { user: { locale: 'nl' } },
    });

    await client.put('/api/auth/profile/preferences', { locale: 'en' });
    expect(await savedLocale(customer.username)).toBe('en');
    expect((await client.get('/api/auth/profile', { headers: dutch })).body.data.user.locale).toBe(
      'en',
    );
  });

  it.each([['de'], ['NL'], [''], [null], [42]])(
    'when the locale is %j, then 400 VALIDATION_ERROR and nothing changes',
    async (locale) => {
      const client = await signIn(portal, customer);
      await client.put('/api/auth/profile/preferences', { locale: 'nl' });
      const response = await client.put('/api/auth/profile/preferences', { locale });
      expectError(
        response,
        400,
        'VALIDATION_ERROR',
        'De taal moet een van de volgende zijn: en, nl',
      );
      expect(response.body.details).toEqual([
        { field: 'locale', message: 'De taal moet een van de volgende zijn: en, nl' },
      ]);
      expect(await savedLocale(customer.username)).toBe('nl');

      await client.put('/api/auth/profile/preferences', { locale: 'en' });
      expectError(
        await client.put('/api/auth/profile/preferences', { locale }, { headers: dutch }),
        400,
        'VALIDATION_ERROR',
        'Language must be one of: en, nl',
      );
      expect(await savedLocale(customer.username)).toBe('en');
    },
  );

  it('when the body names nothing to change, then 400 and nothing changes', async () => {
    const client = await signIn(portal, customer);
    expectError(
      await client.put('/api/auth/profile/preferences', {}),
      400,
      'VALIDATION_ERROR',
      'Give the locale or statusEmails to change',
    );
    expectError(await client.put('/api/auth/profile/preferences', []), 400, 'VALIDATION_ERROR');
    expect(await savedLocale(customer.username)).toBe('en');
  });
});

describe('status e-mails where the portal sends no e-mail (no SMTP_URL)', () => {
  it('when a customer with an address switches them on, then 400 and they stay off', async () => {
    const client = await signIn(portal, customer);
    const response = await client.put('/api/auth/profile/preferences', { statusEmails: true });
    expectError(response, 400, 'VALIDATION_ERROR', 'This portal does not send e-mail');
    expect((await client.get('/api/auth/profile/preferences')).body.data.statusEmails).toBe(false);
    const profile = (await client.get('/profile')).body as string;
    expect(profile).toContain(
      'This portal does not send e-mail, so status e-mails are not available.',
    );
    expect(profile).not.toContain('Turn on status e-mails');
  });
});

describe('the switcher (POST /language, no JavaScript)', () => {
  it('when a visitor chooses Dutch, then a year-long cookie is set, they go back where they were, and /login is Dutch', async () => {
    const response = await postSwitcher(null, { locale: 'nl', returnTo: '/login' });
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/login');
    const cookie = response.headers
      .getSetCookie()
      .find((line) => line.startsWith('portal_locale='))!;
    expect(cookie).toMatch(/^portal_locale=nl;/);
    expect(cookie).toMatch(/Max-Age=31536000/i);
    expect(cookie).toMatch(/HttpOnly/i);

    const page = await fetch(`${portal.url}/login`, {
      headers: { Cookie: 'portal_locale=nl', 'Accept-Language': 'en' },
    });
    expect(page.headers.get('content-language')).toBe('nl');
    expect(await page.text()).toMatch(/^<!DOCTYPE html><html lang="nl"/i);
  });

  it('when a signed-in user chooses, then the choice is also saved as their preference', async () => {
    const client = await signIn(portal, customer);
    const response = await postSwitcher(client, { locale: 'nl', returnTo: '/receipts?page=2' });
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/receipts?page=2');
    expect(await savedLocale(customer.username)).toBe('nl');
    await postSwitcher(client, { locale: 'en', returnTo: '/profile' });
    expect(await savedLocale(customer.username)).toBe('en');
  });

  it.each(['//evil.example/x', '/\\evil.example', 'https://evil.example/', 'dashboard'])(
    'when the return address is %s, then it goes to / instead',
    async (returnTo) => {
      const response = await postSwitcher(null, { locale: 'en', returnTo });
      expect(response.status).toBe(303);
      expect(response.headers.get('location')).toBe('/');
    },
  );

  it('when the language is unknown, then 400 with a clear message, no cookie and no saved change', async () => {
    const anonymous = await postSwitcher(null, { locale: 'fr', returnTo: '/login' }, dutch);
    expect(anonymous.status).toBe(400);
    expect(await anonymous.text()).toBe('De taal moet een van de volgende zijn: en, nl');
    expect(anonymous.headers.getSetCookie().some((line) => line.startsWith('portal_locale='))).toBe(
      false,
    );

    const client = await signIn(portal, customer);
    const response = await postSwitcher(client, { returnTo: '/login' }, dutch);
    expect(response.status).toBe(400);
    expect(await response.text()).toBe('Language must be one of: en, nl');
    expect(response.headers.getSetCookie().some((line) => line.startsWith('portal_locale='))).toBe(
      false,
    );
    expect(await savedLocale(customer.username)).toBe('en');
  });

  it('when another site posts the form, then it is refused', async () => {
    const response = await postSwitcher(
      null,
      { locale: 'nl', returnTo: '/' },
      { Origin: 'https://evil.example' },
    );
    expect(response.status).toBe(403);
  });
});

describe('the order of the rules on pages', () => {
  it("when the browser asks for Dutch, then pages say lang=nl; an English cookie beats it; a user's preference beats both", async () => {
    const lang = async (headers: Record<string, string>) =>
      /<html lang="(\w+)"/.exec(
        await (await fetch(`${portal.url}/login`, { headers })).text(),
      )?.[1];
    expect(await lang({})).toBe('en');
    expect(await lang(dutch)).toBe('nl');
    expect(await lang({ ...dutch, Cookie: 'portal_locale=en' })).toBe('en');
    expect(await lang({ 'Accept-Language': 'de-DE' })).toBe('en');

    const client = await signIn(portal, customer);
    await client.put('/api/auth/profile/preferences', { locale: 'nl' });
    const page = await fetch(`${portal.url}/profile`, {
      headers: { Cookie: `${client.cookie}; portal_locale=en`, 'Accept-Language': 'en' },
    });
    expect(/<html lang="(\w+)"/.exec(await page.text())?.[1]).toBe('nl');
    await client.put('/api/auth/profile/preferences', { locale: 'en' });
  });

  it('when a link names a language, then the pages after it keep it, unless a saved preference decides', async () => {
    const linked = await fetch(`${portal.url}/login?lang=nl`, {
      headers: { Cookie: 'portal_locale=en' },
    });
    const remembered = linked.headers
      .getSetCookie()
      .find((line) => line.startsWith('portal_locale='));
    expect(remembered).toMatch(/^portal_locale=nl;.*HttpOnly/i);
    const next = await fetch(`${portal.url}/forgot-password`, {
      headers: { Cookie: remembered!.split(';')[0]! },
    });
    expect(/<html lang="(\w+)"/.exec(await next.text())?.[1]).toBe('nl');

    const client = await signIn(portal, customer);
    await client.put('/api/auth/profile/preferences', { locale: 'en' });
    const withPreference = await fetch(`${portal.url}/profile?lang=nl`, {
      headers: { Cookie: client.cookie! },
    });
    expect(/<html lang="(\w+)"/.exec(await withPreference.text())?.[1]).toBe('en');
    expect(
      withPreference.headers.getSetCookie().some((line) => line.startsWith('portal_locale=')),
    ).toBe(false);
  });
});
