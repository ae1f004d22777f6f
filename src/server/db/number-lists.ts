/**
 * Long lists of whole numbers (and of texts) read as one text (SQLite's group_concat, PostgreSQL's string_agg)
 * rather than one row object each: at 100,000 ids that is most of the cost of reading them.
 */

/**
 * An aggregate of `expression` over the rows in `order` (SQLite keeps the order of an ordered subquery),
 * or in no particular order without one: sorting 100,000 ids costs PostgreSQL more than reading them.
 */
export const numberListOf = (isSqlite: boolean, expression: string, order?: string) =>
  isSqlite
    ? `group_concat(${expression})`
    : `string_agg((${expression})::text, ','${order ? ` ORDER BY ${order}` : ''})`;

/** A JSON array of `expression` (a text) over the rows in `order`, as for numberListOf. */
export const textListOf = (isSqlite: boolean, expression: string, order: string) =>
  isSqlite ? `json_group_array(${expression})` : `json_agg(${expression} ORDER BY ${order})::text`;

/** The rows of `from` in `order`, ready for numberListOf: an ordered subquery for SQLite, the table for PostgreSQL. */
export const orderedRows = (isSqlite: boolean, from: string, order: string) =>
  isSqlite ? `(SELECT * FROM ${from} ORDER BY ${order}) AS "ordered"` : `${from} AS "ordered"`;

/**
 * Parses a comma-separated list of whole numbers; far faster than split(',').map(Number). The commas
 * are counted first, so the array is allocated once at its size: allocating for the longest possible
 * list and copying out the part used cost more than the parsing.
 */
export function parseNumberList(text: string | null): Float64Array {
  if (!text) return new Float64Array(0);
  let commas = 0;
  for (let at = text.indexOf(','); at !== -1; at = text.indexOf(',', at + 1)) commas += 1;
  const numbers = new Float64Array(commas + 1);
  let count = 0;
  let value = 0;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code === 44) {
      numbers[count++] = value;
      value = 0;
    } else {
      value = value * 10 + (code - 48);
    }
  }
  numbers[count] = value;
  return numbers;
}
