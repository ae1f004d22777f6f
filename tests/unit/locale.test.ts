import { describe, expect, it } from 'vitest';
import { m } from '~/paraglide/messages.js';
import { chooseLocale, inLocale } from '~/server/locale';

const none = { preference: null, cookie: undefined, acceptLanguage: null };

describe('chooseLocale (README.md "Languages")', () => {
  it('when nothing says otherwise, then English', () => {
    expect(chooseLocale(none)).toBe('en');
  });

  it('when the browser prefers Dutch, then Dutch', () => {
    expect(chooseLocale({ ...none, acceptLanguage: 'nl-NL,nl;q=0.9,en;q=0.8' })).toBe('nl');
    expect(chooseLocale({ ...none, acceptLanguage: 'nl-SR' })).toBe('nl');
    expect(chooseLocale({ ...none, acceptLanguage: 'fr-FR, nl;q=0.5' })).toBe('nl');
  });

  it('when the browser asks only for languages the portal lacks, then English', () => {
    expect(chooseLocale({ ...none, acceptLanguage: 'de-DE,de;q=0.9' })).toBe('en');
    expect(chooseLocale({ ...none, acceptLanguage: 'garbage;;q=x' })).toBe('en');
  });

  it('when English is weighted above Dutch, then English', () => {
    expect(chooseLocale({ ...none, acceptLanguage: 'nl;q=0.4, en-GB;q=0.8' })).toBe('en');
  });

  it("when the switcher's cookie is set, then it beats the browser", () => {
    expect(chooseLocale({ ...none, cookie: 'en', acceptLanguage: 'nl' })).toBe('en');
    expect(chooseLocale({ ...none, cookie: 'nl', acceptLanguage: 'en' })).toBe('nl');
  });

  it('when the user saved a preference, then it beats the cookie and the browser', () => {
    expect(chooseLocale({ preference: 'en', cookie: 'nl', acceptLanguage: 'nl' })).toBe('en');
    expect(chooseLocale({ preference: 'nl', cookie: 'en', acceptLanguage: 'en' })).toBe('nl');
  });

  it("when a link names its language (a status e-mail's), then it beats the cookie and the browser, not a saved preference", () => {
    expect(chooseLocale({ ...none, link: 'nl', cookie: 'en', acceptLanguage: 'en' })).toBe('nl');
    expect(
      chooseLocale({ preference: 'en', link: 'nl', cookie: undefined, acceptLanguage: null }),
    ).toBe('en');
    expect(chooseLocale({ ...none, link: 'fr', acceptLanguage: 'nl' })).toBe('nl');
  });

  it('when a cookie or preference names no known language, then it is passed over', () => {
    expect(chooseLocale({ preference: 'de', cookie: 'xx', acceptLanguage: 'nl' })).toBe('nl');
  });
});

describe('inLocale', () => {
  it('when messages are built inside, then in that language, awaited parts included', async () => {
    const name = await inLocale('nl', async () => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      return m.language_name();
    });
    expect(name).toBe('Nederlands');
    expect(inLocale('en', () => m.language_name())).toBe('English');
  });

  it('when two requests overlap, then each keeps its own language', async () => {
    const later = (locale: 'en' | 'nl', ms: number) =>
      inLocale(locale, async () => {
        await new Promise((resolve) => setTimeout(resolve, ms));
        return m.language_switcher_label();
      });
    expect(await Promise.all([later('nl', 5), later('en', 1)])).toEqual(['Taal', 'Language']);
  });
});
