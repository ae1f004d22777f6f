/**
 * Queries sent to a PostgreSQL connection that is still running another, as two reads started at once
 * inside one transaction do. pg 8 queues them (with a DeprecationWarning, once a process, so a test
 * cannot count on seeing it); pg 9 refuses them. Counted here at pg's client, for every connection of
 * the process, while `work` runs.
 */
import pg from 'pg';

type ClientState = { _activeQuery: unknown; _queryQueue: unknown[] };

export async function queriesToBusyConnections(work: () => Promise<void>): Promise<number> {
  const query = pg.Client.prototype.query;
  let busy = 0;
  pg.Client.prototype.query = function (this: pg.Client & ClientState, ...args: unknown[]) {
    if (this._activeQuery || this._queryQueue.length > 0) busy += 1;
    return (query as (...args: unknown[]) => unknown).apply(this, args);
  } as typeof query;
  try {
    await work();
  } finally {
    pg.Client.prototype.query = query;
  }
  return busy;
}
