/**
 * Languages in the admin calls: consignee assignments, provider tokens and logo/background answer in
 * the request's language (Accept-Language: nl gives Dutch, no header gives English), with
 * the same status and errorType either way. The sandbox's consent page follows the reader's language;
 * its token endpoint plays another company's server and stays English.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { m } from '~/paraglide/messages.js';
import { SVG_FILE, TEXT_FILE, type UploadFile } from '../support/images';
import { startInProcessPortal, type InProcessPortal } from '../support/in-process';
import type { ApiClient, ApiResponse } from '../support/api-client';
import { createUser, expectError, signedInAdmin, type TestUser } from '../support/api-steps';
import { authorizeParams, consentPage, pkcePair, tokenRequest } from '../support/sandbox-steps';

const DUTCH = { 'Accept-Language': 'nl' };
const nl = { locale: 'nl' } as const;
const MISSING_ID = 999_999;

let portal: InProcessPortal;
let admin: ApiClient;
let viewer: TestUser;

beforeAll(async () => {
  portal = await startInProcessPortal({ LOGIN_MAX_ATTEMPTS: '1000' });
  admin = await signedInAdmin(portal);
  viewer = await createUser(admin, 'langviewer', 'viewer');
});

afterAll(async () => {
  await portal?.stop();
});

/** The same call twice: once as a Dutch reader, once without any language. */
async function inBothLanguages(call: (headers: Record<string, string>) => Promise<ApiResponse>) {
  return { dutch: await call(DUTCH), english: await call({}) };
}

async function upload(
  kind: 'logo' | 'background',
  file: UploadFile,
  headers: Record<string, string>,
): Promise<ApiResponse> {
  const form = new FormData();
  form.append(kind, new Blob([new Uint8Array(file.bytes)], { type: file.type }), file.name);
  const encoded = new Response(form);
  const response = await fetch(`${portal.url}/api/${kind}/upload`, {
    method: 'POST',
    headers: {
      Origin: portal.url,
      Cookie: admin.cookie!,
      'Content-Type': encoded.headers.get('content-type')!,
      ...headers,
    },
    body: Buffer.from(await encoded.arrayBuffer()),
  });
  return { status: response.status, headers: response.headers, body: await response.json() };
}

describe('consignee assignments', () => {
  it('when an assignment names a user that does not exist, then the 404 is in Dutch for a Dutch reader and in English otherwise', async () => {
    const { dutch, english } = await inBothLanguages((headers) =>
      admin.post(`/api/consignees/user/${MISSING_ID}/assign`, { consigneeIds: [1] }, { headers }),
    );
    expectError(dutch, 404, 'NOT_FOUND', 'Gebruiker niet gevonden');
    expectError(english, 404, 'NOT_FOUND', 'User not found');
  });

  it('when a user is added to a consignee that does not exist, then the 404 is in Dutch for a Dutch reader and in English otherwise', async () => {
    const { dutch, english } = await inBothLanguages((headers) =>
      admin.post(`/api/consignees/${MISSING_ID}/add-user`, { userId: viewer.id }, { headers }),
    );
    expectError(dutch, 404, 'NOT_FOUND', 'Geadresseerde niet gevonden');
    expectError(english, 404, 'NOT_FOUND', 'Consignee not found');
  });

  it("when a bulk assignment names unknown consignees or no user, then the refusal is in the reader's language", async () => {
    const unknown = await inBothLanguages((headers) =>
      admin.post(
        '/api/consignees/bulk-add-user',
        { consigneeIds: [MISSING_ID], userId: viewer.id },
        { headers },
      ),
    );
    expectError(
      unknown.dutch,
      400,
      'VALIDATION_ERROR',
      m.assignments_unknown_consignees({ ids: String(MISSING_ID) }, nl),
    );
    expectError(unknown.english, 400, 'VALIDATION_ERROR', `Unknown consignee ids: ${MISSING_ID}`);
    const noUser = await inBothLanguages((headers) =>
      admin.post('/api/consignees/bulk-add-user', { consigneeIds: [1] }, { headers }),
    );
    expectError(
      noUser.dutch,
      400,
      'VALIDATION_ERROR',
      'userId moet een positief geheel getal zijn',
    );
    expectError(noUser.english, 400, 'VALIDATION_ERROR', 'userId must be a positive integer');
  });
});

describe('provider tokens', () => {
  it('when the manual update lacks the refresh token, then the 400 is in Dutch for a Dutch reader and in English otherwise', async () => {
    const { dutch, english } = await inBothLanguages((headers) =>
      admin.post('/api/tokens/update', { accessToken: 'only-access' }, { headers }),
    );
    expectError(dutch, 400, 'VALIDATION_ERROR', m.tokens_both_required({}, nl));
    expect(dutch.body.message).toBe('Zowel het access token als het refresh token is verplicht');
    expectError(
      english,
      400,
      'VALIDATION_ERROR',
      'Both access token and refresh token are required',
    );
  });

  it("when the refresh token expiry is out of range, then the limits are named in the reader's language", async () => {
    const payload = { accessToken: 'a', refreshToken: 'r', refreshTokenExpirySeconds: 10 };
    const { dutch, english } = await inBothLanguages((headers) =>
      admin.post('/api/tokens/update', payload, { headers }),
    );
    expectError(
      dutch,
      400,
      'VALIDATION_ERROR',
      'De geldigheidsduur van het refresh token moet tussen 300 en 31536000 seconden liggen',
    );
    expectError(
      english,
      400,
      'VALIDATION_ERROR',
      'Refresh token expiry must be between 300 and 31536000 seconds',
    );
  });
});

describe('logo and background', () => {
  it('when a text file is uploaded as the logo, then it is refused in Dutch for a Dutch reader and in English otherwise', async () => {
    const { dutch, english } = await inBothLanguages((headers) =>
      upload('logo', TEXT_FILE, headers),
    );
    expectError(dutch, 400, 'VALIDATION_ERROR', 'Kies een afbeeldingsbestand');
    expectError(english, 400, 'VALIDATION_ERROR', 'Please select an image file');
  });

  it("when an SVG is uploaded as the logo or the background, then the accepted formats are named in the reader's language", async () => {
    const logo = await inBothLanguages((headers) => upload('logo', SVG_FILE, headers));
    expectError(
      logo.dutch,
      400,
      'VALIDATION_ERROR',
      'Alleen JPEG-, PNG-, GIF- en WebP-bestanden zijn toegestaan',
    );
    expectError(
      logo.english,
      400,
      'VALIDATION_ERROR',
      'Only JPEG, PNG, GIF, and WebP files are allowed',
    );
    const background = await inBothLanguages((headers) => upload('background', SVG_FILE, headers));
    expectError(background.dutch, 400, 'VALIDATION_ERROR', 'Kies een geldig afbeeldingsbestand');
    expectError(background.english, 400, 'VALIDATION_ERROR', 'Please select a valid image file');
  });

  it("when there is no logo to delete or the opacity is refused, then the answer is in the reader's language", async () => {
    const nothing = await inBothLanguages((headers) =>
      admin.delete('/api/logo/current', { headers }),
    );
    expectError(nothing.dutch, 404, 'NOT_FOUND', 'Er is geen logo om te verwijderen');
    expectError(nothing.english, 404, 'NOT_FOUND', 'No logo to delete');
    const opacity = await inBothLanguages((headers) =>
      admin.put('/api/background/opacity', { opacity: 0.33 }, { headers }),
    );
    expectError(
      opacity.dutch,
      400,
      'VALIDATION_ERROR',
      'De dekking moet een getal van 0,1 tot en met 1 zijn, in stappen van 0,05',
    );
    expectError(
      opacity.english,
      400,
      'VALIDATION_ERROR',
      'Opacity must be a number from 0.1 to 1 in steps of 0.05',
    );
  });

  it("when the opacity is saved, then the confirmation is in the reader's language", async () => {
    const { dutch, english } = await inBothLanguages((headers) =>
      admin.put('/api/background/opacity', { opacity: 0.5 }, { headers }),
    );
    expect(dutch.status).toBe(200);
    expect(dutch.body.message).toBe('De dekking is bijgewerkt.');
    expect(english.body.message).toBe('Opacity updated successfully!');
  });
});

describe('the sandbox provider', () => {
  it('when the consent page is opened by a Dutch reader, then it asks in Dutch; without a language in English', async () => {
    const params = authorizeParams(portal, pkcePair().challenge);
    const page = (headers: Record<string, string>) => consentPage(portal, params, headers);
    const dutch = await (await page(DUTCH)).text();
    expect(dutch).toContain('<html lang="nl"');
    expect(dutch).toContain('>Toestaan</button>');
    expect(dutch).toContain('>Weigeren</button>');
    const english = await (await page({})).text();
    expect(english).toContain('>Authorize</button>');
    expect(english).toContain('>Deny</button>');
  });

  it('when an unknown client asks a Dutch reader, then the refusal page is in Dutch', async () => {
    const params = authorizeParams(portal, pkcePair().challenge, { client_id: 'someone-else' });
    const response = await consentPage(portal, params, DUTCH);
    expect(response.status).toBe(400);
    const page = await response.text();
    expect(page).toContain('Autorisatie geweigerd');
    expect(page).toContain(
      'De toepassing die om toegang vraagt, is niet bij dit systeem geregistreerd.',
    );
  });

  it("when its token endpoint is asked in Dutch, then it still answers in English, as the other company's server would", async () => {
    const response = await tokenRequest(portal, { client_id: 'freight-portal' }, DUTCH);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      error: 'invalid_request',
      error_description: 'grant_type is required',
    });
  });
});
