import { describe, expect, it } from 'vitest';
import { isSessionExpired } from '~/server/services/accounts/sessions';

const MINUTE = 60_000;
const now = Date.parse('2026-11-21T12:00:00Z');
const session = (lastSeenMinutesAgo: number, expiresInMinutes: number) => ({
  lastSeenAt: new Date(now - lastSeenMinutesAgo * MINUTE),
  expiresAt: new Date(now + expiresInMinutes * MINUTE),
});

describe('isSessionExpired', () => {
  it('when the session was seen recently and is young, then it is alive', () => {
    expect(isSessionExpired(session(5, 60), now, 30)).toBe(false);
  });

  it('when the session has been idle for the idle limit, then it is over', () => {
    expect(isSessionExpired(session(30, 60), now, 30)).toBe(true);
    expect(isSessionExpired(session(29, 60), now, 30)).toBe(false);
  });

  it('when the absolute expiry has passed, then it is over however active', () => {
    expect(isSessionExpired(session(0, 0), now, 30)).toBe(true);
    expect(isSessionExpired(session(0, -1), now, 30)).toBe(true);
  });
});
