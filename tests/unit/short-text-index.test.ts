import { describe, expect, it } from 'vitest';
import { ShortTextIndex } from '~/server/short-text-index';

const TEXTS = [
  'wr-100001\ncoolblue b.v.\ntjon a fat supermarkt n.v.',
  'wr-100002\ntarget corporation\nsuri-tech solutions n.v.',
  'wr-100003\namazon.com services llc\nmarcel tjin a djie',
  'wr-9\némile transport\ncafé 📦 paramaribo',
  '',
  'x',
];

function indexOf(texts: string[]): ShortTextIndex {
  const index = new ShortTextIndex(texts.length);
  texts.forEach((text, slot) => index.add(slot, text));
  return index;
}

const slotsHolding = (texts: string[], search: string) =>
  texts.flatMap((text, slot) => (text.includes(search) ? [slot] : []));

/** Every string of one or two code units found in the texts. */
function shortStrings(texts: string[]): Set<string> {
  const found = new Set<string>();
  for (const text of texts) {
    for (let index = 0; index < text.length; index += 1) {
      found.add(text[index]!);
      if (index + 1 < text.length) found.add(text.slice(index, index + 2));
    }
  }
  return found;
}

describe('ShortTextIndex', () => {
  it('answers every one- and two-unit string the texts hold exactly as String.includes does, ascending', () => {
    const index = indexOf(TEXTS);
    const searches = shortStrings(TEXTS);
    expect(searches.size).toBeGreaterThan(100);
    for (const search of searches)
      expect([...index.slotsContaining(search)], search).toEqual(slotsHolding(TEXTS, search));
  });

  it('answers nothing for strings no text holds, accented and astral ones too', () => {
    const index = indexOf(TEXTS);
    for (const search of ['q', 'zq', 'é9', 'É', '🚚', '\u00e9\u0301'])
      expect([...index.slotsContaining(search)], search).toEqual([]);
    expect([...index.slotsContaining('📦')]).toEqual([3]);
    expect([...index.slotsContaining('é')]).toEqual([3]);
  });

  it('finds texts in every word of its sets, full words and the last partial one included', () => {
    // 1,000 texts: 31 full words and a partial one; every text holds "a", every third one "b7".
    const texts = Array.from(
      { length: 1_000 },
      (_, slot) => `a${slot % 3 === 0 ? 'b7' : 'c'}${slot}`,
    );
    const index = indexOf(texts);
    for (const search of ['a', 'b7', '99', '0', 'c9'])
      expect([...index.slotsContaining(search)], search).toEqual(slotsHolding(texts, search));
    expect(index.slotsContaining('a')).toHaveLength(1_000);
  });

  it('refuses an empty string and strings longer than two units', () => {
    const index = indexOf(TEXTS);
    expect(() => index.slotsContaining('')).toThrow(RangeError);
    expect(() => index.slotsContaining('wr-')).toThrow(RangeError);
  });
});
