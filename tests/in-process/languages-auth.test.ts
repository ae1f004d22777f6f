/**
 * Sign-in, user and body messages in the request's language (README.md "Languages"): Dutch for
 * `Accept-Language: nl`, English without it, and a signed-in user's saved preference above the header.
 * The status and errorType never change with the language.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInProcessPortal, type InProcessPortal } from '../support/in-process';
import { ApiClient, type ApiResponse } from '../support/api-client';
import { createUser, expectError, signIn, signedInAdmin } from '../support/api-steps';

const DUTCH = { 'Accept-Language': 'nl' };
const ENGLISH = { 'Accept-Language': 'en' };
const LIMITS = { LOGIN_MAX_ATTEMPTS: '3', LOGIN_WINDOW_SECONDS: '60' };

let portal: InProcessPortal;
let admin: ApiClient;

beforeAll(async () => {
  portal = await startInProcessPortal(LIMITS);
  admin = await signedInAdmin(portal);
});

afterAll(async () => {
  await portal?.stop();
});

function attempt(body: unknown, headers: Record<string, string> = {}): Promise<ApiResponse> {
  return new ApiClient(portal).post('/api/auth/login', body, { headers });
}

describe('login validation', () => {
  it('when a login is too short with Accept-Language nl, then 400 VALIDATION_ERROR says so in Dutch, per field', async () => {
    const response = await attempt({ username: 'ab', password: 'abc' }, DUTCH);
    expectError(
      response,
      400,
      'VALIDATION_ERROR',
      'De gebruikersnaam moet minimaal 3 tekens lang zijn',
    );
    expect(response.body.details).toEqual([
      { field: 'username', message: 'De gebruikersnaam moet minimaal 3 tekens lang zijn' },
      { field: 'password', message: 'Het wachtwoord moet minimaal 6 tekens lang zijn' },
    ]);
    expect(response.headers.get('content-language')).toBe('nl');
  });

  it('when the same login comes without Accept-Language, then the messages are the English ones', async () => {
    const response = await attempt({ username: 'ab', password: 'abc' });
    expectError(response, 400, 'VALIDATION_ERROR', 'Username must be at least 3 characters');
    expect(response.body.details).toEqual([
      { field: 'username', message: 'Username must be at least 3 characters' },
      { field: 'password', message: 'Password must be at least 6 characters' },
    ]);
  });

  it('when fields are missing or the username has odd characters with Accept-Language nl, then each message is Dutch', async () => {
    expectError(await attempt({}, DUTCH), 400, 'VALIDATION_ERROR', 'Gebruikersnaam is verplicht');
    expectError(
      await attempt({ username: 'a b c', password: 'secret-1' }, DUTCH),
      400,
      'VALIDATION_ERROR',
      'De gebruikersnaam mag alleen letters, cijfers, koppeltekens en liggende streepjes bevatten',
    );
  });

  it('when the body is no JSON with Accept-Language nl, then 400 and 415 keep their status with Dutch messages', async () => {
    const client = new ApiClient(portal);
    const broken = await client.post('/api/auth/login', undefined, {
      body: '{"username":',
      headers: { ...DUTCH, 'Content-Type': 'application/json' },
    });
    expectError(broken, 400, 'VALIDATION_ERROR', 'Het verzoek bevat geen geldige JSON');
    const plain = await client.post('/api/auth/login', undefined, {
      body: 'username=x',
      headers: { ...DUTCH, 'Content-Type': 'text/plain' },
    });
    expectError(plain, 415, 'VALIDATION_ERROR', 'Content-Type moet application/json zijn');
  });
});

describe('wrong credentials and the rate limit', () => {
  it('when the password is wrong with Accept-Language nl, then 401 AUTHENTICATION_ERROR in Dutch; without it, in English', async () => {
    expectError(
      await attempt({ username: 'nobody', password: 'wrong-password' }, DUTCH),
      401,
      'AUTHENTICATION_ERROR',
      'Gebruikersnaam of wachtwoord is onjuist',
    );
    expectError(
      await attempt({ username: 'nobody-else', password: 'wrong-password' }),
      401,
      'AUTHENTICATION_ERROR',
      'Invalid username or password',
    );
  });

  it('when a username is locked, then the 429 counts down in Dutch for nl and in English otherwise', async () => {
    for (let index = 0; index < 3; index += 1)
      await attempt({ username: 'locked', password: `wrong-password-${index}` }, DUTCH);

    const dutch = await attempt({ username: 'locked', password: 'wrong-password' }, DUTCH);
    expectError(
      dutch,
      429,
      'RATE_LIMITED',
      /^Te veel inlogpogingen\. Wacht \d+:\d{2} voordat u het opnieuw probeert\.$/,
    );
    expect(dutch.body.retryAfter).toBeGreaterThanOrEqual(1);

    const english = await attempt({ username: 'locked', password: 'wrong-password' });
    expectError(
      english,
      429,
      'RATE_LIMITED',
      /^Too many login attempts\. Please wait \d+:\d{2} before trying again\.$/,
    );
  });
});

describe('user management', () => {
  it('when the admin sends Accept-Language nl, then not-found ids, own-account rules and successes answer in Dutch', async () => {
    expectError(
      await admin.put('/api/auth/users/abc', {}, { headers: DUTCH }),
      404,
      'NOT_FOUND',
      'Gebruiker niet gevonden',
    );
    expectError(
      await admin.get('/api/consignees/user/abc', { headers: DUTCH }),
      404,
      'NOT_FOUND',
      'Gebruiker niet gevonden',
    );
    const self = await admin.get('/api/auth/profile');
    expectError(
      await admin.delete(`/api/auth/users/${self.body.data.user.id}`, { headers: DUTCH }),
      403,
      'FORBIDDEN',
      'U kunt uw eigen account niet verwijderen',
    );

    const created = await admin.post(
      '/api/auth/users',
      { username: 'sanne', password: 'sanne-password' },
      { headers: DUTCH },
    );
    expect(created.status).toBe(201);
    expect(created.body.message).toBe('De gebruiker is aangemaakt');
    const taken = await admin.post(
      '/api/auth/users',
      { username: 'sanne', password: 'sanne-password' },
      { headers: DUTCH },
    );
    expectError(taken, 409, 'CONFLICT', 'Deze gebruikersnaam bestaat al');
    expect(taken.body.details).toEqual([
      { field: 'username', message: 'Deze gebruikersnaam bestaat al' },
    ]);
  });
});

describe('the saved preference', () => {
  it('when a user saved Dutch, then later answers are Dutch even with Accept-Language en, across sign-out and sign-in', async () => {
    const lotte = await createUser(admin, 'lotte');
    const client = await signIn(portal, lotte);

    const saved = await client.put(
      '/api/auth/profile/preferences',
      { locale: 'nl' },
      { headers: ENGLISH },
    );
    expect(saved.status).toBe(200);

    const invalid = await client.post(
      '/api/auth/change-password',
      { currentPassword: '', newPassword: 'abc' },
      { headers: ENGLISH },
    );
    expectError(invalid, 400, 'VALIDATION_ERROR', 'Huidig wachtwoord is verplicht');
    const wrong = await client.post(
      '/api/auth/change-password',
      { currentPassword: 'not-the-password', newPassword: 'new-password' },
      { headers: ENGLISH },
    );
    expectError(wrong, 400, 'VALIDATION_ERROR', 'Het huidige wachtwoord is onjuist');

    const loggedOut = await client.post('/api/auth/logout', undefined, { headers: ENGLISH });
    expect(loggedOut.body.message).toBe('U bent uitgelogd');

    const again = await new ApiClient(portal).post(
      '/api/auth/login',
      { username: 'lotte', password: lotte.password },
      { headers: ENGLISH },
    );
    expect(again.status).toBe(200);
    expect(again.body.data.user.locale).toBe('nl');
  });

  it('when a user saved English, then Accept-Language nl does not turn the answers Dutch', async () => {
    const noor = await createUser(admin, 'noor');
    const client = await signIn(portal, noor);
    expect(
      (await client.put('/api/auth/profile/preferences', { locale: 'en' }, { headers: DUTCH }))
        .status,
    ).toBe(200);

    const wrong = await client.post(
      '/api/auth/change-password',
      { currentPassword: 'not-the-password', newPassword: 'new-password' },
      { headers: DUTCH },
    );
    expectError(wrong, 400, 'VALIDATION_ERROR', 'Current password is incorrect');
    expect(
      (await client.post('/api/auth/logout', undefined, { headers: DUTCH })).body.message,
    ).toBe('Logged out successfully');
  });
});
