/**
 * A text's sort key: an ASCII string whose plain binary order (SQLite's BINARY collation,
 * PostgreSQL's "C") is the order people read, that of
 * `Intl.Collator(undefined, { sensitivity: 'base', numeric: true })`: case and accents ignored,
 * runs of digits compared by their value. Stored beside each sortable column and indexed, it gives
 * both databases exactly the same order without either knowing about languages.
 *
 * Known limits: punctuation outside ASCII sorts after the ASCII punctuation (by code point), and
 * letters outside the Latin alphabet after z (by code point); a digit run longer than 90 digits is
 * ordered as if it had 90.
 */

/** ASCII punctuation, symbols and the space in the root collation's order (Unicode CLDR). */
const PUNCTUATION = " _-,;:!?.'\"()[]{}@*/\\&#%`^+<=>|~$";

/** Latin letters the base-letter comparison treats as other letters or as two (NFKD leaves them whole). */
const FOLDED: Record<string, string> = { ß: 'ss', æ: 'ae', œ: 'oe', ø: 'o', ł: 'l', đ: 'd', ð: 'd', ĳ: 'ij', ŀ: 'l' };

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
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[ßæœøłđðĳŀ]/g, (letter) => FOLDED[letter]!);
}

export function sortKey(text: string): string {
  let key = '';
  for (const [element] of baseLetters(text).matchAll(/[0-9]+|[a-z]+|[\s\S]/gu)) {
    const first = element.charCodeAt(0);
    if (first >= 0x30 && first <= 0x39) key += numberItem(element);
    else if (first >= 0x61 && first <= 0x7a) key += element;
    else key += characterItem(element);
  }
  return key;
}
