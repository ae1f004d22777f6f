import { describe, expect, it } from 'vitest';
import {
  cachesToDelete,
  cacheStrategy,
  clearsUserData,
  entriesToEvict,
  isKeepable,
  markOfflinePage,
  OFFLINE_ERROR_TYPE,
  offlineEnvelope,
  STATIC_CACHE,
  userCacheName,
} from '~/shared/offline-cache';

const ORIGIN = 'https://portal.example';
const get = (path: string, origin = ORIGIN) => ({
  method: 'GET',
  url: new URL(path, origin),
  origin: ORIGIN,
});

describe('cacheStrategy', () => {
  it.each(['/_astro/core.DIHdHeHH.js', '/_astro/BareLayout.EDfqU_pH.css'])(
    'when %s (a hashed build file) is asked for, then it is served from the cache first',
    (path) => {
      expect(cacheStrategy(get(path))).toBe('cache-first');
    },
  );

  it.each([
    '/dashboard',
    '/receipts',
    '/receipts?search=amazon&page=2',
    '/receipts/100486',
    '/locations',
    '/profile',
    '/api/receipts?sortBy=receivedDate&sortOrder=desc&page=1',
    '/api/receipts/stats',
    '/api/receipts/100486',
    '/api/config',
  ])(
    'when the signed-in screen or answer %s is asked for, then the network goes first and the cache is the fallback',
    (path) => {
      expect(cacheStrategy(get(path))).toBe('network-first');
    },
  );

  it.each([
    '/admin/users',
    '/admin/tokens',
    '/admin/logo',
    '/api/tokens/info',
    '/api/tokens/status',
    '/api/sync',
    '/api/auth/profile',
    '/api/auth/users',
    '/api/receipts/export.csv',
    '/login',
    '/logout',
    '/offline',
    '/manifest.webmanifest',
    '/sw.js',
    '/dashboard/extra',
  ])('when %s is asked for, then it is never kept', (path) => {
    expect(cacheStrategy(get(path))).toBe('network-only');
  });

  it('when a kept path is posted to or asked for on another origin, then it is never kept', () => {
    expect(cacheStrategy({ ...get('/api/receipts'), method: 'POST' })).toBe('network-only');
    expect(cacheStrategy(get('/dashboard', 'https://elsewhere.example'))).toBe('network-only');
    expect(cacheStrategy(get('/_astro/x.js', 'https://cdn.example'))).toBe('network-only');
  });
});

describe('clearsUserData', () => {
  const request = (method: string, path: string) => ({ method, url: new URL(path, ORIGIN) });

  it('when the user signs out (the form posts to /logout), then the kept data goes before the request is sent', () => {
    expect(clearsUserData(request('POST', '/logout'))).toBe(true);
  });

  it('when the sign-in page is opened, then the kept data goes (only a signed-out browser sees it)', () => {
    expect(clearsUserData(request('GET', '/login'))).toBe(true);
  });

  it('when the server answers 401, then the kept data goes', () => {
    expect(clearsUserData(request('GET', '/api/receipts'), { status: 401, finalUrl: '' })).toBe(
      true,
    );
  });

  it('when an answer was redirected to the sign-in page, then the kept data goes', () => {
    expect(
      clearsUserData(request('GET', '/dashboard'), { status: 200, finalUrl: `${ORIGIN}/login` }),
    ).toBe(true);
  });

  it('when a screen is answered normally, then the kept data stays', () => {
    expect(clearsUserData(request('GET', '/dashboard'))).toBe(false);
    expect(clearsUserData(request('GET', '/receipts'), { status: 200, finalUrl: '' })).toBe(false);
    expect(clearsUserData(request('GET', '/receipts/12'), { status: 404, finalUrl: '' })).toBe(
      false,
    );
    expect(clearsUserData(request('GET', '/logout'))).toBe(false);
  });
});

describe('isKeepable', () => {
  it('when an answer is a whole 200 of our own origin, then it is kept', () => {
    expect(isKeepable({ status: 200, type: 'basic', redirected: false })).toBe(true);
  });

  it.each([
    { status: 500, type: 'basic', redirected: false },
    { status: 503, type: 'basic', redirected: false },
    { status: 404, type: 'basic', redirected: false },
    { status: 0, type: 'opaqueredirect', redirected: false },
    { status: 200, type: 'basic', redirected: true },
    { status: 200, type: 'opaque', redirected: false },
  ])(
    'when an answer is $status $type (redirected: $redirected), then it is not kept',
    (response) => {
      expect(isKeepable(response)).toBe(false);
    },
  );
});

describe('cachesToDelete', () => {
  const names = [STATIC_CACHE, userCacheName('7'), userCacheName('12'), 'something-else'];

  it("when user 7 is signed in, then every other user's cache goes and the built files stay", () => {
    expect(cachesToDelete(names, '7')).toEqual([userCacheName('12')]);
  });

  it('when no one is signed in, then every user cache goes', () => {
    expect(cachesToDelete(names, null)).toEqual([userCacheName('7'), userCacheName('12')]);
  });

  it("when a user whose id starts like another's is signed in, then only the exact cache stays", () => {
    expect(cachesToDelete([userCacheName('1'), userCacheName('12')], '1')).toEqual([
      userCacheName('12'),
    ]);
  });
});

describe('entriesToEvict', () => {
  it('when there are more entries than allowed, then the oldest go', () => {
    expect(entriesToEvict(['a', 'b', 'c', 'd'], 2)).toEqual(['a', 'b']);
  });

  it('when there are no more than allowed, then none go', () => {
    expect(entriesToEvict(['a', 'b'], 2)).toEqual([]);
    expect(entriesToEvict([], 2)).toEqual([]);
  });
});

describe('markOfflinePage', () => {
  it('when a kept page is shown, then its root element carries the time it was stored', () => {
    const html = '<!DOCTYPE html><html lang="nl" data-theme="dark"><head></head></html>';
    expect(markOfflinePage(html, '2026-11-23T18:33:05.123Z')).toBe(
      '<!DOCTYPE html><html data-offline-at="2026-11-23T18:33:05.123Z" lang="nl" data-theme="dark"><head></head></html>',
    );
  });

  it('when the stored time carries markup, then it cannot break out of the attribute', () => {
    expect(markOfflinePage('<html>', '2026"><script>')).toBe('<html data-offline-at="2026">');
  });
});

describe('offlineEnvelope', () => {
  it('is the API error envelope with the offline error type', () => {
    expect(JSON.parse(offlineEnvelope())).toEqual({
      success: false,
      errorType: OFFLINE_ERROR_TYPE,
    });
  });
});
