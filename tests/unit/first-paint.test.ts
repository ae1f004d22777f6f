import { describe, expect, it } from 'vitest';
import {
  isStylesheetProbablyCached,
  markupKey,
  stylesheetCookieValue,
  stylesheetHref,
  SWITCH_ON_SCRIPT,
  withInlineCriticalCss,
  withLowPriorityModuleScripts,
} from '~/server/http/first-paint';

const PAGE =
  '<!DOCTYPE html><html lang="en"><head><title>Sign in</title><link rel="stylesheet" href="/_astro/BareLayout.AbC123.css"></head>' +
  '<body class="min-h-screen"><main class="flex p-4" id="main"><button class="btn btn-primary" hidden>Sign in</button></main></body></html>';

describe('stylesheetHref', () => {
  it('when the page links the build stylesheet, then its href', () => {
    expect(stylesheetHref(PAGE)).toBe('/_astro/BareLayout.AbC123.css');
  });
  it('when the page links none, then null', () => {
    expect(stylesheetHref('<html><head></head><body></body></html>')).toBeNull();
  });
});

describe('isStylesheetProbablyCached', () => {
  it('when the cookie names this build stylesheet, then yes', () => {
    expect(isStylesheetProbablyCached(stylesheetCookieValue('/_astro/BareLayout.AbC123.css'), '/_astro/BareLayout.AbC123.css')).toBe(true);
  });
  it('when the cookie names an older build or is missing, then no', () => {
    expect(isStylesheetProbablyCached('BareLayout.Old999.css', '/_astro/BareLayout.AbC123.css')).toBe(false);
    expect(isStylesheetProbablyCached(undefined, '/_astro/BareLayout.AbC123.css')).toBe(false);
  });
});

describe('markupKey', () => {
  it('when only the text differs, then the same key', () => {
    expect(markupKey(PAGE.replace('Sign in</button>', 'Aanmelden</button>'))).toBe(markupKey(PAGE));
  });
  it('when a quoted attribute value differs, then the same key', () => {
    expect(markupKey(PAGE.replace('lang="en"', 'lang="nl"'))).toBe(markupKey(PAGE));
  });
  it('when a class, an id, an attribute or an element differs, then another key', () => {
    expect(markupKey(PAGE.replace('btn-primary', 'btn-ghost'))).not.toBe(markupKey(PAGE));
    expect(markupKey(PAGE.replace('id="main"', 'id="other"'))).not.toBe(markupKey(PAGE));
    expect(markupKey(PAGE.replace(' hidden>', '>'))).not.toBe(markupKey(PAGE));
    expect(markupKey(PAGE.replace('<main', '<section').replace('</main>', '</section>'))).not.toBe(markupKey(PAGE));
  });
});

describe('withInlineCriticalCss', () => {
  const page = withInlineCriticalCss(PAGE, '.btn{color:red}');

  it('when inlined, then the rules come first and the stylesheet is deferred behind them', () => {
    expect(page).toContain('<style>.btn{color:red}</style><link rel="stylesheet" href="/_astro/BareLayout.AbC123.css" media="print" data-deferred-css></head>');
    expect(page.match(/<link rel="stylesheet"/g)).toHaveLength(1);
  });
  it('when inlined, then the script that switches the stylesheet on ends the body', () => {
    expect(page.endsWith(`<script>${SWITCH_ON_SCRIPT}</script></body></html>`)).toBe(true);
  });
  it('when the page links no stylesheet, then it is left as it is', () => {
    const bare = '<html><head></head><body></body></html>';
    expect(withInlineCriticalCss(bare, '.btn{color:red}')).toBe(bare);
  });
});

describe('withLowPriorityModuleScripts', () => {
  it('when the page has module scripts, then each is fetched at low priority', () => {
    const page = '<script type="module" src="/_astro/a.js"></script><script type="module" src="/_astro/b.js"></script><script>inline()</script>';
    expect(withLowPriorityModuleScripts(page)).toBe(
      '<script type="module" fetchpriority="low" src="/_astro/a.js"></script><script type="module" fetchpriority="low" src="/_astro/b.js"></script><script>inline()</script>',
    );
  });
});
