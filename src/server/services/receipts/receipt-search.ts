/**
 * The text indexes behind the list's search and tracking filters, and the receipt ids they match.
 * Searches of three characters or more are answered by trigram indexes: SQLite's FTS5 and PostgreSQL's
 * pg_trgm GIN indexes (migration 0012); each costs what it matches, not what the table holds. Shorter
 * searches match thousands of receipts, often all of them: they are answered from the search texts
 * the list keeps in memory (receipt-order.ts). The ids of a text are kept in the read cache
 * (response-cache.ts) until the mirror changes, so paging or re-sorting a search finds them once.
 */
import { QueryTypes } from 'sequelize';
import type { Database } from '../../db/database';
import { numberListOf, parseNumberList } from '../../db/number-lists';
import { SHORT_TEXT_MAX } from '../../short-text-index';
import { trackingKey } from './mirror-rows';
import type { ReceiptIndex } from './receipt-order';
import type { ResponseCache } from './response-cache';

export interface SearchDeps {
  db: Database;
  receiptIndex: ReceiptIndex;
  responseCache: ResponseCache;
}

/** The trigram index answers "contains" for three characters or more. */
const TRIGRAM = 3;
/** A text as one FTS5 phrase: matched as a plain substring, whatever quotes or operators it holds. */
const ftsPhrase = (text: string) => `"${text.replaceAll('"', '""')}"`;
/** A LIKE pattern matching any text that contains `text` (LIKE's escape character is the backslash). */
const containing = (text: string) => `%${text.replace(/[\\%_]/g, '\\$&')}%`;

const idCount = (ids: Float64Array) => ids.length;

/** The ids a query selects, ascending (sorted here: a typed array sorts them faster than the database). */
async function idList(
  db: Database,
  sql: string,
  replacements: Record<string, unknown>,
): Promise<Float64Array> {
  const [row] = await db.heavyRead((connection) =>
    db.sequelize.query<{ ids: string | null }>(
      `SELECT ${numberListOf(db.isSqlite, '"id"')} AS "ids" FROM (${sql}) AS "matches"`,
      {
        type: QueryTypes.SELECT,
        replacements,
        ...connection,
      },
    ),
  );
  return parseNumberList(row?.ids ?? null).sort();
}

function readIdsMatchingSearch(
  { db, receiptIndex }: SearchDeps,
  text: string,
): Promise<Float64Array> {
  if (text.length <= SHORT_TEXT_MAX) return receiptIndex.idsContaining(text);
  // Fewer than three characters in more code units (an emoji): no index knows them, so the table is read.
  if ([...text].length < TRIGRAM)
    return idList(db, `SELECT "id" FROM "receipts" WHERE "searchText" LIKE :pattern ESCAPE '\\'`, {
      pattern: containing(text),
    });
  return db.isSqlite
    ? idList(
        db,
        `SELECT rowid AS "id" FROM "receipts_search" WHERE "receipts_search" MATCH :phrase`,
        { phrase: ftsPhrase(text) },
      )
    : idList(db, `SELECT "id" FROM "receipts" WHERE "searchText" LIKE :pattern`, {
        pattern: containing(text),
      });
}

/** Ids of the receipts whose number, shipper or consignee contains `search` (any case), ascending. */
export function idsMatchingSearch(deps: SearchDeps, search: string): Promise<Float64Array> {
  const text = search.toLowerCase();
  return deps.responseCache.part('search', text, () => readIdsMatchingSearch(deps, text), idCount);
}

/** Ids of the receipts with a package whose tracking number contains this one (spaces, case ignored), ascending. */
export function idsWithTrackingNumber(
  { db, responseCache }: SearchDeps,
  trackingNumber: string,
): Promise<Float64Array> {
  const key = trackingKey(trackingNumber);
  // Tracking numbers are at least 8 characters, so the trigram index always applies.
  const read = db.isSqlite
    ? () =>
        idList(
          db,
          `SELECT DISTINCT "receiptId" AS "id" FROM "packages" WHERE "id" IN
             (SELECT rowid FROM "packages_tracking" WHERE "packages_tracking" MATCH :phrase)`,
          {
            phrase: ftsPhrase(key),
          },
        )
    : () =>
        idList(
          db,
          `SELECT DISTINCT "receiptId" AS "id" FROM "packages" WHERE "trackingKey" LIKE :pattern`,
          { pattern: containing(key) },
        );
  return responseCache.part('tracking', key, read, idCount);
}
