/**
 * Searches of one or two characters are answered from the search texts the list keeps in memory
 * (receipt-order.ts), on both databases: such a text is in thousands of receipts or all of them, and
 * an index still had the database read each of those rows for its id (50–140 ms for a digit at
 * 100,000 receipts on PostgreSQL, where going through the texts in memory takes 4 ms). The indexes
 * kept for them go: SQLite's token table (migration 0005) and PostgreSQL's expression index (0015).
 */
import { QueryTypes, type QueryInterface } from 'sequelize';
import { shortSearchTokens } from './0005-receipt-sort-keys-short-search';
import { up as createPostgresShortSearch } from './0015-postgres-short-search';

const FILL_BATCH = 1_000;

export async function up(queryInterface: QueryInterface): Promise<void> {
  const { sequelize } = queryInterface;
  if (sequelize.getDialect() === 'sqlite') {
    await sequelize.query('DROP TRIGGER IF EXISTS "receipts_short_search_delete"');
    await sequelize.query('DROP TABLE IF EXISTS "receipts_short_search"');
  } else {
    await sequelize.query('DROP INDEX IF EXISTS "receipts_short_search_tokens"');
    await sequelize.query('DROP FUNCTION IF EXISTS portal_short_search_tokens(text)');
  }
}

export async function down(queryInterface: QueryInterface): Promise<void> {
  const { sequelize } = queryInterface;
  if (sequelize.getDialect() !== 'sqlite') {
    await createPostgresShortSearch(queryInterface);
    return;
  }
  await sequelize.query(
    `CREATE VIRTUAL TABLE "receipts_short_search" USING fts5(tokens, content='', contentless_delete=1)`,
  );
  await sequelize.query(`CREATE TRIGGER "receipts_short_search_delete" AFTER DELETE ON "receipts" BEGIN
    DELETE FROM "receipts_short_search" WHERE rowid = old."id"; END`);
  for (let after = 0; ;) {
    const rows = await sequelize.query<{ id: number; searchText: string }>(
      `SELECT "id", "searchText" FROM "receipts" WHERE "id" > :after ORDER BY "id" LIMIT ${FILL_BATCH}`,
      { type: QueryTypes.SELECT, replacements: { after } },
    );
    if (rows.length === 0) break;
    await sequelize.query(
      `INSERT INTO "receipts_short_search" (rowid, tokens) VALUES ${rows.map(() => '(?)').join(', ')}`,
      {
        replacements: rows.map((row) => [row.id, shortSearchTokens(row.searchText)]),
      },
    );
    after = rows[rows.length - 1]!.id;
  }
}
