import { describe, expect, it } from 'vitest';
import {
  hasIslands,
  isFirstPage,
  markupKey,
  stylesheetCookieValue,
  staticImports,
  stylesheetHref,
  withInlineCriticalCss,
  withLowPriorityModuleScripts,
  withoutUnreadCustomProperties,
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

describe('isFirstPage', () => {
  it('when the cookie names this build stylesheet, then no', () => {
    expect(
      isFirstPage(
        stylesheetCookieValue('/_astro/BareLayout.AbC123.css'),
        '/_astro/BareLayout.AbC123.css',
      ),
    ).toBe(false);
  });
  it('when the cookie names an older build or is missing, then yes', () => {
    expect(isFirstPage('BareLayout.Old999.css', '/_astro/BareLayout.AbC123.css')).toBe(true);
    expect(isFirstPage(undefined, '/_astro/BareLayout.AbC123.css')).toBe(true);
  });
});

describe('hasIslands', () => {
  it('when the page has an island, then yes; when it has only markup and plain scripts, then no', () => {
    expect(
      hasIslands(
        PAGE.replace(
          '</main>',
          '<astro-island uid="a" component-url="/_astro/X.js"></astro-island></main>',
        ),
      ),
    ).toBe(true);
    expect(hasIslands(PAGE)).toBe(false);
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
    expect(markupKey(PAGE.replace('<main', '<section').replace('</main>', '</section>'))).not.toBe(
      markupKey(PAGE),
    );
  });
});

describe('withInlineCriticalCss', () => {
  const page = withInlineCriticalCss(PAGE, '.btn{color:red}');

  it('when inlined, then the rules take the place of the stylesheet link, which is gone', () => {
    expect(page).toContain('<title>Sign in</title><style>.btn{color:red}</style></head>');
    expect(page).not.toContain('<link rel="stylesheet"');
    expect(page.endsWith('</main></body></html>')).toBe(true);
  });
  it('when the page links no stylesheet, then it is left as it is', () => {
    const bare = '<html><head></head><body></body></html>';
    expect(withInlineCriticalCss(bare, '.btn{color:red}')).toBe(bare);
  });
});

describe('withLowPriorityModuleScripts', () => {
  it('when the page has module scripts, then each is fetched at low priority', () => {
    const page =
      '<script type="module" src="/_astro/a.js"></script><script type="module" src="/_astro/b.js"></script><script>inline()</script>';
    expect(withLowPriorityModuleScripts(page)).toBe(
      '<script type="module" fetchpriority="low" src="/_astro/a.js"></script><script type="module" fetchpriority="low" src="/_astro/b.js"></script><script>inline()</script>',
    );
  });
});

describe('staticImports', () => {
  it('when a built module imports others, then their hrefs beside it, each once', () => {
    const source =
      'import{a as e}from"./core.Ab1.js";import"./side.Cd2.js";import{b}from"./core.Ab1.js";const l=()=>import("./lazy.Ef3.js");';
    expect(staticImports(source, '/_astro/page.X1.js')).toEqual([
      '/_astro/core.Ab1.js',
      '/_astro/side.Cd2.js',
    ]);
  });
});

describe('withLowPriorityModuleScripts with imports', () => {
  it('when scripts import modules, then each module is preloaded at low priority once, before the first script needing it', () => {
    const graph: Record<string, string[]> = {
      '/_astro/a.js': ['/_astro/core.js'],
      '/_astro/b.js': ['/_astro/core.js', '/_astro/v.js'],
      '/_astro/v.js': ['/_astro/core.js'],
    };
    const page =
      '<script type="module" src="/_astro/a.js"></script><script type="module" src="/_astro/b.js"></script>';
    expect(withLowPriorityModuleScripts(page, (href) => graph[href] ?? [])).toBe(
      '<link rel="modulepreload" href="/_astro/core.js" fetchpriority="low"><script type="module" fetchpriority="low" src="/_astro/a.js"></script>' +
        '<link rel="modulepreload" href="/_astro/v.js" fetchpriority="low"><script type="module" fetchpriority="low" src="/_astro/b.js"></script>',
    );
  });
  it('when the page has an island, then its component and renderer and what they import are preloaded at low priority before it, once', () => {
    const graph: Record<string, string[]> = {
      '/_astro/Screen.js': ['/_astro/react.js'],
      '/_astro/client.js': ['/_astro/react.js'],
    };
    const island =
      '<astro-island uid="a" component-url="/_astro/Screen.js" renderer-url="/_astro/client.js" props="{&quot;n&quot;:[0,1]}" client="load">';
    const page = `<main>${island}<p>rows</p></astro-island>${island}</astro-island></main>`;
    expect(withLowPriorityModuleScripts(page, (href) => graph[href] ?? [])).toBe(
      '<main><link rel="modulepreload" href="/_astro/Screen.js" fetchpriority="low"><link rel="modulepreload" href="/_astro/client.js" fetchpriority="low">' +
        `<link rel="modulepreload" href="/_astro/react.js" fetchpriority="low">${island}<p>rows</p></astro-island>${island}</astro-island></main>`,
    );
  });
});

describe('withoutUnreadCustomProperties', () => {
  const CSS =
    '@layer properties{@supports (not (margin-trim:block)){*,:before,:after{--tw-shadow:0 0 #0000;--tw-rotate-x:initial;--tw-skew-x:initial}}}' +
    '@layer utilities{.shadow{--tw-shadow:0 1px 3px #0000001a;box-shadow:var(--tw-shadow)}.border{border-width:1px}}' +
    '@property --tw-shadow{syntax:"*";inherits:false;initial-value:0 0 #0000}' +
    '@property --tw-rotate-x{syntax:"*";inherits:false}' +
    '@property --tw-skew-x{syntax:"*";inherits:false}';

  it('when a rule reads a custom property, then its registration and fallback stay; the others go', () => {
    expect(withoutUnreadCustomProperties(CSS, '<p class="shadow">')).toBe(
      '@layer properties{@supports (not (margin-trim:block)){*,:before,:after{--tw-shadow:0 0 #0000}}}' +
        '@layer utilities{.shadow{--tw-shadow:0 1px 3px #0000001a;box-shadow:var(--tw-shadow)}.border{border-width:1px}}' +
        '@property --tw-shadow{syntax:"*";inherits:false;initial-value:0 0 #0000}',
    );
  });
  it('when the page itself reads one, then it stays too', () => {
    const css = withoutUnreadCustomProperties(CSS, '<p style="rotate:var(--tw-rotate-x)">');
    expect(css).toContain('@property --tw-rotate-x{');
    expect(css).toContain('--tw-rotate-x:initial');
    expect(css).not.toContain('--tw-skew-x');
  });
  it('when no rule reads any, then the fallback block goes as a whole', () => {
    expect(
      withoutUnreadCustomProperties(
        CSS.replace('box-shadow:var(--tw-shadow)', 'box-shadow:none'),
        '',
      ),
    ).toBe(
      '@layer utilities{.shadow{--tw-shadow:0 1px 3px #0000001a;box-shadow:none}.border{border-width:1px}}',
    );
  });
});
