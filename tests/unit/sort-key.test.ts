import { describe, expect, it } from 'vitest';
import { sortKey } from '~/shared/sort-key';

const collator = new Intl.Collator(undefined, { sensitivity: 'base', numeric: true });
/** The databases compare keys byte by byte; the keys are ASCII, so code-unit order is byte order. */
const binary = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const byKey = (texts: string[]) => [...texts].sort((a, b) => binary(sortKey(a), sortKey(b)));

describe('sortKey', () => {
  it('orders case-insensitively: eBay between Dunn and Fox', () => {
    expect(byKey(['Westland Trading', 'eBay Inc.', 'Fox Logistics', 'Dunn Freight'])).toEqual([
      'Dunn Freight',
      'eBay Inc.',
      'Fox Logistics',
      'Westland Trading',
    ]);
  });

  it('ignores accents: Émile Transport equals Emile Transport and sorts before Emilia', () => {
    expect(sortKey('Émile Transport')).toBe(sortKey('emile transport'));
    expect(byKey(['Emilia', 'Émile Transport', 'Emile Transport'])[2]).toBe('Emilia');
  });

  it('orders runs of digits by value', () => {
    expect(byKey(['WR-10', 'WR-2', 'WR-100', 'WR-1'])).toEqual(['WR-1', 'WR-2', 'WR-10', 'WR-100']);
    expect(byKey(['Box 10', 'Box 9'])).toEqual(['Box 9', 'Box 10']);
    expect(sortKey('WR-007')).toBe(sortKey('WR-7'));
  });

  it('puts punctuation before digits and digits before letters, as the collation does', () => {
    expect(byKey(['a', '1', '-', 'Z', '10', '$'])).toEqual(['-', '$', '1', '10', 'a', 'Z']);
  });

  it('folds the Latin letters that are others in base comparison', () => {
    expect(sortKey('Straße')).toBe(sortKey('strasse'));
    expect(sortKey('Søren Æbelø')).toBe(sortKey('soren aebelo'));
  });

  it('equals typographic apostrophes and quotes to the plain ones', () => {
    expect(sortKey('O’Neill Freight')).toBe(sortKey("O'Neill Freight"));
    expect(sortKey('“Fox” Logistics')).toBe(sortKey('"Fox" Logistics'));
  });

  it('puts the Latin letters that are letters of their own where the collation does', () => {
    expect(byKey(['Aydon', 'Aydın', 'Aydin', 'Aydoğan'])).toEqual([
      'Aydin',
      'Aydın',
      'Aydoğan',
      'Aydon',
    ]);
    expect(sortKey('Ħal Far')).toBe(sortKey('Hal Far'));
    expect(sortKey('Paraŀlel')).toBe(sortKey('Parallel'));
  });

  it('is plain ASCII, so every database compares it byte by byte alike', () => {
    for (const text of ['Émile', 'Москва', '北京 1', '€ 5,00', 'naïve café'])
      expect(sortKey(text)).toMatch(/^[\x21-\x7e]*$/);
  });

  it('orders a shorter text before its continuation', () => {
    expect(byKey(['abc', 'ab', 'ab c'])).toEqual(['ab', 'ab c', 'abc']);
  });

  it('agrees with Intl.Collator (base, numeric) on random names of letters, accents, digits and punctuation', () => {
    const alphabet = [...'aAbBeEéÉèzZoOöøØsSßiIıħhnŋ0123456789 -.,&/()\'’"“_'];
    let seed = 12345;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const word = () =>
      Array.from(
        { length: 1 + Math.floor(random() * 8) },
        () => alphabet[Math.floor(random() * alphabet.length)],
      ).join('');
    const texts = Array.from({ length: 2000 }, word);
    const disagreements = [];
    for (let index = 1; index < texts.length; index += 1) {
      const [a, b] = [texts[index - 1]!, texts[index]!];
      const expected = Math.sign(collator.compare(a, b));
      if (Math.sign(binary(sortKey(a), sortKey(b))) !== expected)
        disagreements.push([a, b, expected]);
    }
    expect(disagreements).toEqual([]);
  });
});
