/**
 * Lists sort the way people read (stored sort keys, one per text column, see src/shared/sort-key.ts),
 * and searches of one or two characters get an index of their own (SQLite; until migration 0016).
 * Rows mirrored before this migration get their keys and tokens here; the mirror writes them since.
 */
import { QueryTypes, type QueryInterface } from 'sequelize';
import { SORTED_TEXT_COLUMNS, sortColumn, sortKeysOf, type SortedTextColumn } from '../../src/server/services/mirror-rows';

/**
 * Searches of one or two characters are below the trigram index's reach. Each receipt's search text
 * is therefore also indexed by its distinct characters and pairs of characters, each as one token
 * (code points in hex, joined by 'x', so any tokenizer keeps it whole). Pairs with white space are
 * left out: a search is trimmed, so no search of two characters holds any.
 */
const hexCodes = new Map<string, string>();
function hexCode(character: string): string {
  let code = hexCodes.get(character);
  if (code === undefined) {
    code = character.codePointAt(0)!.toString(16);
    if (hexCodes.size < 10_000) hexCodes.set(character, code);
  }
  return code;
}

/** A search text's tokens, as the short-search index holds them (migration 0016 puts them back on a down). */
export function shortSearchTokens(searchText: string): string {
  const tokens = new Set<string>();
  let previous = '';
  for (const character of searchText) {
    if (character <= ' ' || (character > '~' && /\s/.test(character))) {
      previous = '';
      continue;
    }
    const code = hexCode(character);
    tokens.add(code);
    if (previous) tokens.add(`${previous}x${code}`);
    previous = code;
  }
  return [...tokens].join(' ');
}

const FILL_BATCH = 1_000;
const OLD_SORT_INDEXES = ['receivedDate', 'number', 'shipperName', 'consigneeName', 'status'];

type TextRow = { id: number; searchText: string } & Record<SortedTextColumn, string>;

export async function up(queryInterface: QueryInterface): Promise<void> {
  const { sequelize } = queryInterface;
  const isSqlite = sequelize.getDialect() === 'sqlite';
  // Keys compare byte by byte: PostgreSQL must not apply a language's collation to them.
  const keyType = isSqlite ? 'TEXT' : 'TEXT COLLATE "C"';
  for (const column of SORTED_TEXT_COLUMNS) {
    await sequelize.query(`ALTER TABLE "receipts" ADD COLUMN "${sortColumn(column)}" ${keyType} NOT NULL DEFAULT ''`);
  }
  if (isSqlite) {
    await sequelize.query(`CREATE VIRTUAL TABLE "receipts_short_search" USING fts5(tokens, content='', contentless_delete=1)`);
    await sequelize.query(`CREATE TRIGGER "receipts_short_search_delete" AFTER DELETE ON "receipts" BEGIN
      DELETE FROM "receipts_short_search" WHERE rowid = old."id"; END`);
  }

  // A batch at a time, each in two statements: one update of all its keys, one insert of all its tokens.
  const columns = ['id', 'searchText', ...SORTED_TEXT_COLUMNS].map((column) => `"${column}"`).join(', ');
  const assignments = SORTED_TEXT_COLUMNS.map((column, index) => `"${sortColumn(column)}" = "keys"."column${index + 2}"`).join(', ');
  for (let after = 0; ; ) {
    const rows = await sequelize.query<TextRow>(`SELECT ${columns} FROM "receipts" WHERE "id" > :after ORDER BY "id" LIMIT ${FILL_BATCH}`, {
      type: QueryTypes.SELECT,
      replacements: { after },
    });
    if (rows.length === 0) break;
    const keyRows = rows.map((row) => [row.id, ...Object.values(sortKeysOf(row))]);
    await sequelize.transaction(async (transaction) => {
      await sequelize.query(`UPDATE "receipts" SET ${assignments} FROM (VALUES ${keyRows.map(() => '(?)').join(', ')}) AS "keys" WHERE "receipts"."id" = "keys"."column1"`, {
        replacements: keyRows,
        transaction,
      });
      if (isSqlite) {
        await sequelize.query(`INSERT INTO "receipts_short_search" (rowid, tokens) VALUES ${rows.map(() => '(?)').join(', ')}`, {
          replacements: rows.map((row) => [row.id, shortSearchTokens(row.searchText)]),
          transaction,
        });
      }
    });
    after = rows[rows.length - 1]!.id;
  }

  for (const key of OLD_SORT_INDEXES) await queryInterface.removeIndex('receipts', `receipts_by_${key}`);
  await queryInterface.addIndex('receipts', ['receivedDate', 'id'], { name: 'receipts_by_receivedDate' });
  for (const column of SORTED_TEXT_COLUMNS) {
    await queryInterface.addIndex('receipts', [sortColumn(column), 'id'], { name: `receipts_by_${column}` });
  }
}

export async function down(queryInterface: QueryInterface): Promise<void> {
  const { sequelize } = queryInterface;
  for (const column of SORTED_TEXT_COLUMNS) await queryInterface.removeIndex('receipts', `receipts_by_${column}`);
  await queryInterface.removeIndex('receipts', 'receipts_by_receivedDate');
  for (const key of OLD_SORT_INDEXES) await queryInterface.addIndex('receipts', [key, 'id', 'consigneeId'], { name: `receipts_by_${key}` });
  if (sequelize.getDialect() === 'sqlite') {
    await sequelize.query('DROP TRIGGER IF EXISTS "receipts_short_search_delete"');
    await sequelize.query('DROP TABLE IF EXISTS "receipts_short_search"');
  }
  for (const column of SORTED_TEXT_COLUMNS) await queryInterface.removeColumn('receipts', sortColumn(column));
}
