import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '~/shared/api-client';
import {
  createQuery,
  DATA_CACHE,
  LIST_CACHE,
  MAX_RETRIES,
  retryDelay,
  shouldRetry,
  withRetries,
  type CachePolicy,
} from '~/stores/query-cache';

const MINUTE = 60_000;
const httpError = (status: number) =>
  new ApiError(status, { success: false, message: `status ${status}` }, `status ${status}`);

describe('cache policies', () => {
  it('when a receipt list, then fresh 2 minutes and kept 5; other data fresh 5 and kept 10', () => {
    expect(LIST_CACHE).toEqual({ freshMs: 2 * MINUTE, keepMs: 5 * MINUTE });
    expect(DATA_CACHE).toEqual({ freshMs: 5 * MINUTE, keepMs: 10 * MINUTE });
  });
});

describe('shouldRetry and retryDelay', () => {
  it.each([400, 401, 403, 404, 429, 499])('when the answer was %s, then no retry', (status) => {
    expect(shouldRetry(1, httpError(status))).toBe(false);
  });

  it.each([0, 500, 502, 503])('when the answer was %s, then up to 3 retries', (status) => {
    expect(shouldRetry(1, httpError(status))).toBe(true);
    expect(shouldRetry(MAX_RETRIES, httpError(status))).toBe(true);
    expect(shouldRetry(MAX_RETRIES + 1, httpError(status))).toBe(false);
  });

  it('when the service worker answered that the server cannot be reached (it just tried), then no retry', () => {
    expect(
      shouldRetry(1, new ApiError(503, { success: false, errorType: 'OFFLINE' }, 'offline')),
    ).toBe(false);
  });

  it('when a plain error (a network failure), then retried like a 5xx', () => {
    expect(shouldRetry(1, new TypeError('Failed to fetch'))).toBe(true);
  });

  it('when retrying, then waits 1 s, 2 s, 4 s and never more than 30 s', () => {
    expect([1, 2, 3, 6].map(retryDelay)).toEqual([1000, 2000, 4000, 30_000]);
  });
});

describe('withRetries', () => {
  const noWait = vi.fn(async () => {});

  it('when every attempt fails with a 5xx, then 4 attempts in all and the last error', async () => {
    const load = vi.fn(async () => {
      throw httpError(503);
    });
    await expect(withRetries(load, noWait)).rejects.toMatchObject({ status: 503 });
    expect(load).toHaveBeenCalledTimes(1 + MAX_RETRIES);
  });

  it('when an attempt answers 404, then no further attempt', async () => {
    const load = vi.fn(async () => {
      throw httpError(404);
    });
    await expect(withRetries(load, noWait)).rejects.toMatchObject({ status: 404 });
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('when a retry succeeds, then its answer', async () => {
    const load = vi.fn().mockRejectedValueOnce(httpError(500)).mockResolvedValueOnce('answer');
    await expect(withRetries(load, noWait)).resolves.toBe('answer');
  });
});

/** A query over a fake clock; `load` answers `{key}#{n}` for the n-th call of a key. */
function setup(
  policy: CachePolicy = LIST_CACHE,
  initial: { key: string; data?: string; error?: unknown } = { key: 'a', data: 'a#0' },
) {
  let time = 0;
  const calls: string[] = [];
  const load = vi.fn(async (key: string) => {
    calls.push(key);
    return `${key}#${calls.filter((call) => call === key).length}`;
  });
  const query = createQuery(policy, load, { initial, now: () => time, sleep: async () => {} });
  return {
    query,
    load,
    advance: (ms: number) => {
      time += ms;
    },
    settle: () => new Promise((resolve) => setTimeout(resolve, 0)),
  };
}

describe('createQuery', () => {
  it('when rendered with an answer, then it is shown without a call', () => {
    const { query, load } = setup();
    expect(query.$state.get()).toEqual({
      key: 'a',
      data: 'a#0',
      error: undefined,
      fetching: false,
    });
    query.show('a');
    expect(load).not.toHaveBeenCalled();
  });

  it('when a new key is shown, then the previous answer stays visible while it loads', async () => {
    const { query, settle } = setup();
    query.show('b');
    expect(query.$state.get()).toMatchObject({ key: 'b', data: 'a#0', fetching: true });
    await settle();
    expect(query.$state.get()).toEqual({
      key: 'b',
      data: 'b#1',
      error: undefined,
      fetching: false,
    });
  });

  it('when going back to a fresh answer, then it shows at once with no call', async () => {
    const { query, load, advance, settle } = setup();
    query.show('b');
    await settle();
    advance(LIST_CACHE.freshMs - 1);
    query.show('a');
    expect(query.$state.get()).toMatchObject({ key: 'a', data: 'a#0', fetching: false });
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('when going back to a stale answer that is still kept, then it shows at once and reloads', async () => {
    const { query, load, advance, settle } = setup();
    query.show('b');
    await settle();
    advance(LIST_CACHE.freshMs);
    query.show('a');
    expect(query.$state.get()).toMatchObject({ key: 'a', data: 'a#0', fetching: true });
    await settle();
    expect(load).toHaveBeenLastCalledWith('a');
    expect(query.$state.get()).toMatchObject({ data: 'a#1', fetching: false });
  });

  it('when an answer was not shown for longer than it is kept, then it is gone and loads again', async () => {
    const { query, advance, settle } = setup();
    query.show('b');
    await settle();
    advance(LIST_CACHE.keepMs);
    query.show('c');
    await settle();
    query.show('a');
    expect(query.$state.get()).toMatchObject({ key: 'a', data: 'c#1', fetching: true });
  });

  it('when the shown answer is older than the keep time, then it is still kept (only unseen ones go)', async () => {
    const { query, load, advance, settle } = setup(DATA_CACHE);
    advance(DATA_CACHE.keepMs * 2);
    await query.get('other');
    advance(1);
    query.show('a');
    expect(query.$state.get()).toMatchObject({ data: 'a#0', fetching: true });
    await settle();
    expect(load.mock.calls.map(([key]) => key)).toEqual(['other', 'a']);
  });

  it('when the same key is asked twice while it loads, then one call', async () => {
    const { query, load } = setup();
    await Promise.all([query.get('x'), query.get('x')]);
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('when get answers from a fresh entry, then show uses it with no further call', async () => {
    const { query, load } = setup();
    await expect(query.get('x')).resolves.toBe('x#1');
    await expect(query.get('x')).resolves.toBe('x#1');
    query.show('x');
    expect(query.$state.get()).toMatchObject({ key: 'x', data: 'x#1', fetching: false });
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('when an answer arrives for a key no longer shown, then the shown state is left alone', async () => {
    const { query, settle } = setup();
    query.show('b');
    query.show('a');
    await settle();
    expect(query.$state.get()).toMatchObject({ key: 'a', data: 'a#0', fetching: false });
    query.show('b');
    expect(query.$state.get()).toMatchObject({ key: 'b', data: 'b#1', fetching: false });
  });

  it('when loading fails, then the error is shown and refetch clears it and loads again', async () => {
    const load = vi.fn().mockRejectedValueOnce(httpError(400)).mockResolvedValueOnce('b#2');
    const query = createQuery(LIST_CACHE, load, {
      initial: { key: 'a', data: 'a#0' },
      sleep: async () => {},
    });
    query.show('b');
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(query.$state.get()).toMatchObject({ key: 'b', data: 'a#0', fetching: false });
    expect(query.$state.get().error).toBeInstanceOf(ApiError);
    query.refetch();
    expect(query.$state.get()).toMatchObject({ error: undefined, fetching: true });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(query.$state.get()).toEqual({
      key: 'b',
      data: 'b#2',
      error: undefined,
      fetching: false,
    });
  });

  it('when rendered with an error, then it is shown until a refetch', async () => {
    const failure = httpError(503);
    const { query, load, settle } = setup(LIST_CACHE, { key: 'a', error: failure });
    expect(query.$state.get()).toEqual({
      key: 'a',
      data: undefined,
      error: failure,
      fetching: false,
    });
    query.refetch();
    await settle();
    expect(load).toHaveBeenCalledWith('a');
    expect(query.$state.get()).toMatchObject({ data: 'a#1', error: undefined });
  });
});
