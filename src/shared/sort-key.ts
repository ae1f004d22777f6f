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
 *
 * The keys are stored: a change here needs a migration that computes every stored key again.
 */

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

export function sortKey(text: string): string {
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
