/**
 * The list's quick reads (Database.quickRead) keep their statements prepared between pages (on
 * PostgreSQL, named on each connection): a statement read again after a write answers the new rows
 * rather than a state it was prepared in, a statement the database refuses fails its read alone, and
 * the database still closes with statements prepared on it, and a stream of them holds up no other
 * query. SQLite here, PostgreSQL in the database leg.
 */
import { QueryTypes } from 'sequelize';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInProcessPortal, type InProcessPortal } from '../../support/in-process';

let portal: InProcessPortal;

beforeAll(async () => {
  portal = await startInProcessPortal({}, { background: false });
});

afterAll(async () => {
  await portal?.stop();
});

const CONSIGNEE_NAMES = 'SELECT "name" FROM "consignees" WHERE "id" IN ($1, $2) ORDER BY "id"';

describe('quick reads', () => {
  it('when a prepared read runs again after rows change, then it answers the rows as they are now', async () => {
    const { db } = portal.portal;
    const { Consignee } = db.models;
    const first = await Consignee.create({ id: 910_001, name: 'Before N.V.' });
    const second = await Consignee.create({ id: 910_002, name: 'Second N.V.' });
    const ids = [first.id, second.id];
    expect(await db.quickRead(CONSIGNEE_NAMES, ids)).toEqual([
      { name: 'Before N.V.' },
      { name: 'Second N.V.' },
    ]);

    await first.update({ name: 'After N.V.' });
    await second.destroy();
    expect(await db.quickRead(CONSIGNEE_NAMES, ids)).toEqual([{ name: 'After N.V.' }]);
    // Ten at once share the statement and each gets its own rows.
    const reads = await Promise.all(
      Array.from({ length: 10 }, (_, index) =>
        db.quickRead(CONSIGNEE_NAMES, index % 2 ? ids : [second.id, second.id]),
      ),
    );
    expect(reads).toEqual(
      Array.from({ length: 10 }, (_, index) => (index % 2 ? [{ name: 'After N.V.' }] : [])),
    );
  });

  it('when the database refuses a read, then that read fails and the next ones answer', async () => {
    const { db } = portal.portal;
    await expect(db.quickRead('SELECT "nothing" FROM "no_such_table"', [])).rejects.toThrow(
      /no_such_table/,
    );
    await expect(db.quickRead('SELECT "nothing" FROM "no_such_table"', [])).rejects.toThrow(
      /no_such_table/,
    );
    expect(
      await db.quickRead('SELECT COUNT(*) AS "count" FROM "receipts" WHERE $1 = 1', [1]),
    ).toEqual([{ count: expect.anything() }]);
  });

  it('when quick reads keep coming, then a query of the rest of the portal is answered among them', async () => {
    // The list's pages under load: on SQLite, a query through Sequelize (a session check) waited on the
    // quick reads' connection until none was in flight, up to 1.6 s in the benchmark.
    const { db } = portal.portal;
    const IN_FLIGHT = 10;
    const MOST_READS = 5_000;
    let reads = 0;
    let answered = false;
    let flowing: () => void;
    const streamFlows = new Promise<void>((resolve) => (flowing = resolve));
    const keepReading = async () => {
      while (!answered && reads < MOST_READS) {
        reads += 1;
        await db.quickRead('SELECT COUNT(*) AS "count" FROM "receipts" WHERE "id" > $1', [reads]);
        if (reads >= 2 * IN_FLIGHT) flowing();
      }
    };
    const readers = Array.from({ length: IN_FLIGHT }, keepReading);
    await streamFlows;
    const [session] = await db.sequelize.query('SELECT COUNT(*) AS "count" FROM "sessions"', {
      type: QueryTypes.SELECT,
    });
    answered = true;
    const readsBeforeAnswer = reads;
    await Promise.all(readers);
    expect(session).toEqual({ count: expect.anything() });
    // Answered in its turn among the reads in flight, not after the stream ended.
    expect(readsBeforeAnswer).toBeLessThan(MOST_READS);
  });

  it('when the database closes with statements prepared, then it closes', async () => {
    const other = await startInProcessPortal({}, { background: false });
    // Another text for each page size, as pages of other sizes make.
    for (let count = 1; count <= 5; count += 1) {
      const list = Array.from({ length: count }, (_, index) => `$${index + 1}`).join(', ');
      await other.portal.db.quickRead(
        `SELECT "id" FROM "receipts" WHERE "id" IN (${list})`,
        Array.from({ length: count }, (_, index) => index + 1),
      );
    }
    await expect(other.stop()).resolves.toBeUndefined();
  });
});
