/**
 * The time as the portal's rules see it: session idleness, token expiry, outbox backoff, sync
 * intervals, leases. The composition root (src/server/portal.ts) passes the system clock; in-process
 * tests pass one they move themselves. Timers still run on real time.
 */
export interface Clock {
  /** Milliseconds since the epoch, as Date.now(). */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };
