/**
 * PostgreSQL's counterpart of SQLite's short-search index (migration 0005): a search of one or two
 * characters has no trigram for pg_trgm to look up, so without this it reads the whole table. The
 * index holds each receipt's characters and pairs of adjacent characters (pairs across white space
 * left out, as a search is trimmed), so such a search costs what it matches.
 */
import type { QueryInterface } from 'sequelize';

export async function up(queryInterface: QueryInterface): Promise<void> {
  const { sequelize } = queryInterface;
  if (sequelize.getDialect() !== 'postgres') return;
  await sequelize.query(`
    CREATE FUNCTION portal_short_search_tokens(text) RETURNS text[]
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    AS $$
      SELECT coalesce(array_agg(DISTINCT token), '{}')
        FROM (SELECT substr($1, start, width) AS token
                FROM generate_series(1, length($1)) AS start, (VALUES (1), (2)) AS widths (width)
               WHERE start + width - 1 <= length($1)) AS grams
       WHERE token !~ '\\s'
    $$`);
  await sequelize.query(
    'CREATE INDEX "receipts_short_search_tokens" ON "receipts" USING gin (portal_short_search_tokens("searchText"))',
  );
}

export async function down(queryInterface: QueryInterface): Promise<void> {
  const { sequelize } = queryInterface;
  if (sequelize.getDialect() !== 'postgres') return;
  await sequelize.query('DROP INDEX IF EXISTS "receipts_short_search_tokens"');
  await sequelize.query('DROP FUNCTION IF EXISTS portal_short_search_tokens(text)');
}
