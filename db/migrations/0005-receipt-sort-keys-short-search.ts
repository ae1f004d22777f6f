/**
 * Lists sort the way people read (stored sort keys, one per text column, as src/shared/sort-key.ts made them then),
 * and searches of one or two characters get an index of their own (SQLite; until migration 0016).
 * Rows mirrored before this migration get their keys and tokens here; the mirror writes them since.
 */
import { QueryTypes, type QueryInterface } from 'sequelize';

// Migrations are history: what this one computes is frozen here as it was when it was written, not
// imported from the application, whose sort keys may change (with a migration of their own).

/** The text columns the list sorts by, each with a stored sort key column beside it (`<column>Sort`). */
const SORTED_TEXT_COLUMNS = [
  'number',
  'shipperName',
  'consigneeName',
  'status',
  'destination',
  'modeOfTransportation',
  'originName',
] as const;
type SortedTextColumn = (typeof SORTED_TEXT_COLUMNS)[number];
const sortColumn = (column: SortedTextColumn) => `${column}Sort` as const;

/** ASCII punctuation, symbols and the space in the root collation's order (Unicode CLDR). */
const PUNCTUATION = ' _-,;:!?.\'"()[]{}@*/\\&#%`^+<=>|~$';

/** Marks a letter of its own that the collation puts right after a Latin letter (ı after i): '|' in the key. */
const AFTER_LETTER = '\u{E000}';

/**
 * Latin letters NFKD leaves whole: those the base-letter comparison equals to others, those it puts
 * right after a letter, and typographic quotes, which it equals to the plain ones.
 */
const FOLDED: Record<string, string> = {
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  ł: 'l',
  đ: 'd',
  ð: 'd',
  ħ: 'h',
  ı: `i${AFTER_LETTER}`,
  ŋ: `n${AFTER_LETTER}`,
  ŧ: `t${AFTER_LETTER}`,
  ƒ: `f${AFTER_LETTER}`,
  '‘': "'",
  '’': "'",
  '‚': "'",
  '‛': "'",
  '“': '"',
  '”': '"',
  '„': '"',
  '‟': '"',
};
const FOLDABLE = new RegExp(`[${Object.keys(FOLDED).join('')}]`, 'g');

// Each element of the text becomes one item of the key; its first character says what kind it is, in
// the order the collation puts the kinds: punctuation < other symbols < numbers < letters < other letters.
const PUNCTUATION_BASE = 0x21; // '!' … 'A': one character per punctuation mark
const OTHER_SYMBOL = 'B'; // then the code point as 6 hex digits
const NUMBER = 'C'; // then the digit count (as one character from '!') and the digits without leading zeros
const OTHER_LETTER = '{'; // after 'z'; then the code point as 6 hex digits
const MAX_DIGITS = 90;

const hex6 = (codePoint: number) => codePoint.toString(16).padStart(6, '0');

function numberItem(digits: string): string {
  const significant = digits.replace(/^0+/, '') || '0';
  const length = Math.min(significant.length, MAX_DIGITS);
  return NUMBER + String.fromCharCode(PUNCTUATION_BASE + length) + significant.slice(0, MAX_DIGITS);
}

function characterItem(character: string): string {
  if (character >= 'a' && character <= 'z') return character;
  const rank = PUNCTUATION.indexOf(/\s/.test(character) ? ' ' : character);
  if (rank >= 0) return String.fromCharCode(PUNCTUATION_BASE + rank);
  const codePoint = character.codePointAt(0)!;
  return (/\p{L}/u.test(character) ? OTHER_LETTER : OTHER_SYMBOL) + hex6(codePoint);
}

/** Lower case without accents, the letters above folded; plain ASCII (most names) needs none of it. */
function baseLetters(text: string): string {
  if (/^[\x20-\x7e]*$/.test(text)) return text.toLowerCase();
  return (
    text
      .normalize('NFKD')
      .replace(/\p{M}/gu, '')
      .toLowerCase()
      .replace(FOLDABLE, (letter) => FOLDED[letter]!)
      // ŀ (NFKD: l and a middle dot) and l·l are plain l and ll to the collation.
      .replaceAll('l\u00B7', 'l')
  );
}

/**
 * A text's sort key: an ASCII string whose plain binary order is the order people read (case and
 * accents ignored, runs of digits compared by their value).
 */
function sortKey(text: string): string {
  let key = '';
  for (const [element] of baseLetters(text).matchAll(/[0-9]+|[a-z]+|[\s\S]/gu)) {
    const first = element.charCodeAt(0);
    if (first >= 0x30 && first <= 0x39) key += numberItem(element);
    else if (first >= 0x61 && first <= 0x7a) key += element;
    else if (element === AFTER_LETTER) key += '|';
    else key += characterItem(element);
  }
  return key;
}

function sortKeysOf(texts: Record<SortedTextColumn, string>): Record<string, string> {
  return Object.fromEntries(
    SORTED_TEXT_COLUMNS.map((column) => [sortColumn(column), sortKey(texts[column])]),
  );
}

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
    await sequelize.query(
      `ALTER TABLE "receipts" ADD COLUMN "${sortColumn(column)}" ${keyType} NOT NULL DEFAULT ''`,
    );
  }
  if (isSqlite) {
    await sequelize.query(
      `CREATE VIRTUAL TABLE "receipts_short_search" USING fts5(tokens, content='', contentless_delete=1)`,
    );
    await sequelize.query(`CREATE TRIGGER "receipts_short_search_delete" AFTER DELETE ON "receipts" BEGIN
      DELETE FROM "receipts_short_search" WHERE rowid = old."id"; END`);
  }

  // A batch at a time, each in two statements: one update of all its keys, one insert of all its tokens.
  const columns = ['id', 'searchText', ...SORTED_TEXT_COLUMNS]
    .map((column) => `"${column}"`)
    .join(', ');
  const assignments = SORTED_TEXT_COLUMNS.map(
    (column, index) => `"${sortColumn(column)}" = "keys"."column${index + 2}"`,
  ).join(', ');
  for (let after = 0; ;) {
    const rows = await sequelize.query<TextRow>(
      `SELECT ${columns} FROM "receipts" WHERE "id" > :after ORDER BY "id" LIMIT ${FILL_BATCH}`,
      {
        type: QueryTypes.SELECT,
        replacements: { after },
      },
    );
    if (rows.length === 0) break;
    const keyRows = rows.map((row) => [row.id, ...Object.values(sortKeysOf(row))]);
    await sequelize.transaction(async (transaction) => {
      await sequelize.query(
        `UPDATE "receipts" SET ${assignments} FROM (VALUES ${keyRows.map(() => '(?)').join(', ')}) AS "keys" WHERE "receipts"."id" = "keys"."column1"`,
        {
          replacements: keyRows,
          transaction,
        },
      );
      if (isSqlite) {
        await sequelize.query(
          `INSERT INTO "receipts_short_search" (rowid, tokens) VALUES ${rows.map(() => '(?)').join(', ')}`,
          {
            replacements: rows.map((row) => [row.id, shortSearchTokens(row.searchText)]),
            transaction,
          },
        );
      }
    });
    after = rows[rows.length - 1]!.id;
  }

  for (const key of OLD_SORT_INDEXES)
    await queryInterface.removeIndex('receipts', `receipts_by_${key}`);
  await queryInterface.addIndex('receipts', ['receivedDate', 'id'], {
    name: 'receipts_by_receivedDate',
  });
  for (const column of SORTED_TEXT_COLUMNS) {
    await queryInterface.addIndex('receipts', [sortColumn(column), 'id'], {
      name: `receipts_by_${column}`,
    });
  }
}

export async function down(queryInterface: QueryInterface): Promise<void> {
  const { sequelize } = queryInterface;
  for (const column of SORTED_TEXT_COLUMNS)
    await queryInterface.removeIndex('receipts', `receipts_by_${column}`);
  await queryInterface.removeIndex('receipts', 'receipts_by_receivedDate');
  for (const key of OLD_SORT_INDEXES)
    await queryInterface.addIndex('receipts', [key, 'id', 'consigneeId'], {
      name: `receipts_by_${key}`,
    });
  if (sequelize.getDialect() === 'sqlite') {
    await sequelize.query('DROP TRIGGER IF EXISTS "receipts_short_search_delete"');
    await sequelize.query('DROP TABLE IF EXISTS "receipts_short_search"');
  }
  for (const column of SORTED_TEXT_COLUMNS)
    await queryInterface.removeColumn('receipts', sortColumn(column));
}
