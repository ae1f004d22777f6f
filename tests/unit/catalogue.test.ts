/**
 * The message catalogues (messages/*.json): every language has every message with the same
 * parameters, and every message the code asks for exists.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const settings = JSON.parse(
  readFileSync(path.join(root, 'project.inlang/settings.json'), 'utf8'),
) as { baseLocale: string; locales: string[] };

function catalogue(locale: string): Record<string, string> {
  const { $schema: _schema, ...messages } = JSON.parse(
    readFileSync(path.join(root, 'messages', `${locale}.json`), 'utf8'),
  ) as Record<string, string>;
  return messages;
}

const parameters = (text: string) =>
  [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort();

/** Every `m.some_key` in the source tree. */
function keysUsedInSource(): Set<string> {
  const used = new Set<string>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'paraglide') walk(full);
      } else if (/\.(ts|tsx|astro|mjs)$/.test(entry.name)) {
        for (const match of readFileSync(full, 'utf8').matchAll(/\bm\.([a-z][a-z0-9_]*)\b/g))
          used.add(match[1]!);
      }
    }
  };
  walk(path.join(root, 'src'));
  return used;
}

const base = catalogue(settings.baseLocale);

describe('message catalogues', () => {
  it('when the project is read, then English is the base language and Dutch is offered', () => {
    expect(settings.baseLocale).toBe('en');
    expect(settings.locales).toEqual(expect.arrayContaining(['en', 'nl']));
  });

  it.each(settings.locales.filter((locale) => locale !== settings.baseLocale))(
    'when %s is compared with English, then it has exactly the same messages',
    (locale) => {
      const translated = catalogue(locale);
      expect(
        Object.keys(translated).filter((key) => !(key in base)),
        'messages English lacks',
      ).toEqual([]);
      expect(
        Object.keys(base).filter((key) => !(key in translated)),
        `messages ${locale} lacks`,
      ).toEqual([]);
    },
  );

  it.each(settings.locales)(
    'when a %s message is read, then it is not empty and takes the parameters of the English one',
    (locale) => {
      const translated = catalogue(locale);
      for (const [key, text] of Object.entries(base)) {
        const other = translated[key];
        if (other === undefined) continue;
        expect(other.trim(), `${locale}.${key} is empty`).not.toBe('');
        expect(parameters(other), `${locale}.${key} parameters`).toEqual(parameters(text));
      }
    },
  );

  it('when a message states a size, then it takes the size as a parameter: a changed limit changes the text', () => {
    for (const locale of settings.locales) {
      const typed = Object.entries(catalogue(locale)).filter(([, text]) =>
        /\d\s*(bytes|KB|MB|GB)\b/i.test(text),
      );
      expect(typed, locale).toEqual([]);
    }
  });

  it("when Dutch names the product's things, then in Dutch: a pre-alert is a vooraanmelding", () => {
    const english = Object.entries(catalogue('nl')).filter(([, text]) => /pre-?alert/i.test(text));
    expect(english).toEqual([]);
  });

  it('when the code asks for a message, then the catalogue has it', () => {
    const missing = [...keysUsedInSource()].filter((key) => !(key in base));
    expect(missing).toEqual([]);
  });

  it('when a message is in the catalogue, then some code uses it', () => {
    const used = keysUsedInSource();
    expect(Object.keys(base).filter((key) => !used.has(key))).toEqual([]);
  });
});
