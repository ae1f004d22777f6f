import { describe, expect, it } from 'vitest';
import {
  hasUnknownRefreshExpiry,
  lacksRefreshToken,
  oauthFailureText,
  popupFeatures,
  readOAuthPopupMessage,
  timeRemainingText,
  tokenFacts,
  tokenStateLabel,
  tokenTone,
  tokenUpdateSchema,
  type TokenStatus,
} from '~/shared/tokens';

function firstMessage(input: unknown): string | null {
  const result = tokenUpdateSchema.safeParse(input);
  return result.success ? null : result.error.issues[0]!.message;
}

const TOKENS = { accessToken: 'access-value', refreshToken: 'refresh-value' };

// The English messages (messages/en.json), word for word: no request sets another language here.
const TOKENS_REQUIRED_MESSAGE = 'Both access token and refresh token are required';
const EXPIRY_POSITIVE_MESSAGE = 'Refresh token expiry must be a positive number';
const EXPIRY_RANGE_MESSAGE = 'Refresh token expiry must be between 300 and 31536000 seconds';
const EXPIRY_TWICE_MESSAGE = 'Give the refresh token expiry in one field only';
const TOKEN_LENGTH_MESSAGE = 'A token must not exceed 16384 characters';

describe('tokenUpdateSchema', () => {
  it.each([
    [{}, TOKENS_REQUIRED_MESSAGE],
    [{ accessToken: 'a' }, TOKENS_REQUIRED_MESSAGE],
    [{ refreshToken: 'r' }, TOKENS_REQUIRED_MESSAGE],
    [{ accessToken: '   ', refreshToken: 'r' }, TOKENS_REQUIRED_MESSAGE],
    [{ accessToken: 'a', refreshToken: '\n\t ' }, TOKENS_REQUIRED_MESSAGE],
    [{ accessToken: 5, refreshToken: 'r' }, TOKENS_REQUIRED_MESSAGE],
    [{ accessToken: 'a'.repeat(16_385), refreshToken: 'r' }, TOKEN_LENGTH_MESSAGE],
    [{ ...TOKENS, refreshTokenExpirySeconds: 0 }, EXPIRY_POSITIVE_MESSAGE],
    [{ ...TOKENS, refreshTokenExpirySeconds: -300 }, EXPIRY_POSITIVE_MESSAGE],
    [{ ...TOKENS, refreshTokenExpirySeconds: 3600.5 }, EXPIRY_POSITIVE_MESSAGE],
    [{ ...TOKENS, refreshTokenExpirySeconds: '-5' }, EXPIRY_POSITIVE_MESSAGE],
    [{ ...TOKENS, refreshTokenExpirySeconds: 'soon' }, EXPIRY_POSITIVE_MESSAGE],
    [{ ...TOKENS, refreshTokenExpirySeconds: true }, EXPIRY_POSITIVE_MESSAGE],
    [{ ...TOKENS, refreshTokenExpiry: '1e4' }, EXPIRY_POSITIVE_MESSAGE],
    [{ ...TOKENS, refreshTokenExpirySeconds: 299 }, EXPIRY_RANGE_MESSAGE],
    [{ ...TOKENS, refreshTokenExpiry: 31_536_001 }, EXPIRY_RANGE_MESSAGE],
    [{ ...TOKENS, refreshTokenExpirySeconds: 600, refreshTokenExpiry: 900 }, EXPIRY_TWICE_MESSAGE],
  ])('when the payload is %j, then "%s"', (input, message) => {
    expect(firstMessage(input)).toBe(message);
  });

  it('when the tokens have surrounding blanks and no expiry, then they are trimmed and the expiry is unknown', () => {
    expect(tokenUpdateSchema.parse({ accessToken: '  a \n', refreshToken: '\tr ' })).toEqual({
      accessToken: 'a',
      refreshToken: 'r',
      refreshTokenExpirySeconds: null,
    });
    expect(
      tokenUpdateSchema.parse({
        ...TOKENS,
        refreshTokenExpirySeconds: '',
        refreshTokenExpiry: null,
      }),
    ).toMatchObject({ refreshTokenExpirySeconds: null });
  });

  it('when the expiry is at the limits, in either field or as the text of a number input, then it is accepted', () => {
    expect(
      tokenUpdateSchema.parse({ ...TOKENS, refreshTokenExpirySeconds: 300 })
        .refreshTokenExpirySeconds,
    ).toBe(300);
    expect(
      tokenUpdateSchema.parse({ ...TOKENS, refreshTokenExpiry: 31_536_000 })
        .refreshTokenExpirySeconds,
    ).toBe(31_536_000);
    expect(
      tokenUpdateSchema.parse({ ...TOKENS, refreshTokenExpirySeconds: ' 3600 ' })
        .refreshTokenExpirySeconds,
    ).toBe(3600);
    expect(
      tokenUpdateSchema.parse({
        ...TOKENS,
        refreshTokenExpirySeconds: 900,
        refreshTokenExpiry: 900,
      }).refreshTokenExpirySeconds,
    ).toBe(900);
  });
});

const STATUS: TokenStatus = {
  hasAccessToken: true,
  hasRefreshToken: true,
  isAccessTokenExpired: false,
  isRefreshTokenExpired: false,
  accessTokenExpiry: '2030-01-01T10:00:00.000Z',
  refreshTokenExpiry: '2030-01-31T09:00:00.000Z',
  accessTokenExpiresInMinutes: 59,
  refreshTokenExpiresInMinutes: 43_139,
  canRefresh: true,
  isRefreshing: false,
  source: 'oauth2',
  lastUpdated: '2030-01-01T09:00:00.000Z',
  reconnectRequired: false,
  reconnectReason: null,
};

describe('token cards', () => {
  const facts = (
    present: boolean,
    expired: boolean,
    minutesLeft: number | null,
    refused = false,
  ) => ({ present, expired, refused, minutesLeft });

  it('when the status is loading, missing, expired or valid, then the label says so', () => {
    expect(tokenStateLabel(null)).toBe('Loading...');
    expect(tokenStateLabel(facts(false, false, null))).toBe('Not Set');
    expect(tokenStateLabel(facts(true, true, 0))).toBe('Expired');
    expect(tokenStateLabel(facts(true, false, 10))).toBe('Valid');
    expect(tokenStateLabel(facts(true, false, null))).toBe('Valid');
    expect(tokenStateLabel(facts(true, false, null, true))).toBe('Reconnect required');
  });

  it('when the provider refused the refresh token, then its card is red, shows no time left and no expiry warning', () => {
    const refused = {
      ...STATUS,
      canRefresh: false,
      reconnectRequired: true,
      reconnectReason: 'grant request is invalid',
      refreshTokenExpiry: null,
      refreshTokenExpiresInMinutes: null,
    };
    expect(tokenFacts(refused, 'refresh')).toMatchObject({ present: true, refused: true });
    expect(tokenFacts(refused, 'access')).toMatchObject({ refused: false });
    expect(tokenTone(tokenFacts(refused, 'refresh'))).toBe('error');
    expect(timeRemainingText(tokenFacts(refused, 'refresh'))).toBe('—');
    expect(hasUnknownRefreshExpiry(refused)).toBe(false);
  });

  it('when connected without a refresh token, then the warning is due', () => {
    expect(lacksRefreshToken({ ...STATUS, hasRefreshToken: false, refreshTokenExpiry: null })).toBe(
      true,
    );
    expect(lacksRefreshToken(STATUS)).toBe(false);
    expect(lacksRefreshToken({ ...STATUS, hasAccessToken: false, hasRefreshToken: false })).toBe(
      false,
    );
    expect(lacksRefreshToken(null)).toBe(false);
  });

  it.each([
    [facts(true, true, 0), 'Expired'],
    [facts(true, false, 0), '0m'],
    [facts(true, false, 5), '5m'],
    [facts(true, false, 59), '59m'],
    [facts(true, false, 60), '1h 0m'],
    [facts(true, false, 125), '2h 5m'],
    [facts(true, false, 43_200), '720h 0m'],
    [facts(true, false, null), 'Unknown'],
    [facts(false, false, null), '—'],
  ])('when the token is %j, then the time remaining is "%s"', (input, text) => {
    expect(timeRemainingText(input)).toBe(text);
  });

  it('when the time runs out, then the icon turns from green to yellow at 5 minutes and red once expired', () => {
    expect(tokenTone(facts(true, false, 6))).toBe('success');
    expect(tokenTone(facts(true, false, null))).toBe('success');
    expect(tokenTone(facts(true, false, 5))).toBe('warning');
    expect(tokenTone(facts(true, false, 0))).toBe('warning');
    expect(tokenTone(facts(true, true, 0))).toBe('error');
    expect(tokenTone(facts(false, false, null))).toBe('neutral');
    expect(tokenTone(null)).toBe('neutral');
  });

  it('when a status is read for either card, then each card gets its own token facts', () => {
    expect(tokenFacts(null, 'access')).toBeNull();
    expect(tokenFacts(STATUS, 'access')).toEqual({
      present: true,
      expired: false,
      refused: false,
      minutesLeft: 59,
    });
    expect(
      tokenFacts(
        { ...STATUS, isRefreshTokenExpired: true, refreshTokenExpiresInMinutes: 0 },
        'refresh',
      ),
    ).toEqual({
      present: true,
      expired: true,
      refused: false,
      minutesLeft: 0,
    });
  });

  it('when a refresh token has no known expiry, then the warning is due; not without a refresh token', () => {
    expect(hasUnknownRefreshExpiry(STATUS)).toBe(false);
    expect(
      hasUnknownRefreshExpiry({
        ...STATUS,
        refreshTokenExpiry: null,
        refreshTokenExpiresInMinutes: null,
      }),
    ).toBe(true);
    expect(
      hasUnknownRefreshExpiry({ ...STATUS, hasRefreshToken: false, refreshTokenExpiry: null }),
    ).toBe(false);
    expect(hasUnknownRefreshExpiry(null)).toBe(false);
  });
});

describe('OAuth2 popup', () => {
  it('when the portal window is anywhere on the screen, then the 500×700 popup is centred over it', () => {
    expect(
      popupFeatures(
        { screenX: 100, screenY: 50, outerWidth: 1300, outerHeight: 900 },
        { width: 500, height: 700 },
      ),
    ).toBe('popup=yes,width=500,height=700,left=500,top=150');
    expect(
      popupFeatures(
        { screenX: 0, screenY: 0, outerWidth: 400, outerHeight: 600 },
        { width: 500, height: 700 },
      ),
    ).toBe('popup=yes,width=500,height=700,left=0,top=0');
  });

  it('when a message has the expected type and shape, then it is read; anything else is ignored', () => {
    const success = {
      type: 'oauth2_success',
      data: {
        source: 'oauth2',
        accessTokenExpiry: STATUS.accessTokenExpiry,
        refreshTokenExpiry: null,
      },
    };
    const failure = {
      type: 'oauth2_error',
      error: 'access_denied',
      error_description: 'The user denied the authorization request',
    };
    expect(readOAuthPopupMessage(success)).toEqual(success);
    expect(readOAuthPopupMessage(failure)).toEqual(failure);
    for (const other of [
      null,
      'oauth2_success',
      { type: 'oauth2_success' },
      { type: 'webpackOk' },
      { type: 'oauth2_error', error: 1 },
      { source: 'react-devtools' },
    ]) {
      expect(readOAuthPopupMessage(other)).toBeNull();
    }
  });

  it('when the provider gives a reason, then it follows the "OAuth2 authorization failed: " prefix; without one the default reason is used', () => {
    expect(oauthFailureText('The user denied the authorization request')).toBe(
      'OAuth2 authorization failed: The user denied the authorization request',
    );
    expect(oauthFailureText(null)).toBe('OAuth2 authorization failed: OAuth2 authorization failed');
    expect(oauthFailureText('  ')).toBe('OAuth2 authorization failed: OAuth2 authorization failed');
  });
});
