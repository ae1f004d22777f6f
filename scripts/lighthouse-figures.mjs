// The Lighthouse figures against their budgets (in lighthouseFigures below): first contentful paint of /login and /dashboard, time to
// interactive of /receipts and the accessibility score of the three, first visit (empty cache, no
// cookie but the session's), simulated Regular 3G, in English and in Dutch (Accept-Language: the
// customer has no saved language). Used by scripts/bench.mjs; `node scripts/lighthouse-figures.mjs`
// runs it alone against a small portal (BENCH_RECEIPTS, default 2,000).
import { fileURLToPath } from 'node:url';
import { launch } from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { CHROMIUM_ARGS, chromiumPath } from '../tests/support/chromium.ts';

/** Lighthouse's "Regular 3G": 300 ms round trips, 700 kbit/s, 4x CPU slowdown. */
const REGULAR_3G = { rttMs: 300, throughputKbps: 700, cpuSlowdownMultiplier: 4 };
const LANGUAGES = { en: 'en-US,en;q=0.9', nl: 'nl-NL,nl;q=0.9' };

/** Prints the figures for `baseUrl`, signed in as `customerCookie` (`name=value`) where a page needs it. */
export async function lighthouseFigures(baseUrl, customerCookie) {
  // First paint: the simulation spends 1.2 s before the document's first byte (2 round trips of DNS, the
  // TCP handshake, the request), so the budget is that floor plus 150 ms for the server and the render (README.md "First paint on slow links").
  const pages = [
    ['/login', null, 'first-contentful-paint', 1.35],
    ['/dashboard', customerCookie, 'first-contentful-paint', 1.35],
    ['/receipts', customerCookie, 'interactive', 3.5],
  ];
  for (const [path, cookie, metric, budget] of pages) {
    for (const [language, acceptLanguage] of Object.entries(LANGUAGES)) {
      const headers = { 'Accept-Language': acceptLanguage };
      if (cookie) headers.Cookie = cookie;
      // A browser of its own for every run: a first visit, no cookie or cache left by the one before.
      const chrome = await launch({
        chromePath: chromiumPath(),
        chromeFlags: ['--headless=new', ...CHROMIUM_ARGS],
      });
      const { lhr } = await lighthouse(
        baseUrl + path,
        {
          port: chrome.port,
          output: 'json',
          logLevel: 'error',
          onlyCategories: ['performance', 'accessibility'],
          extraHeaders: headers,
        },
        {
          extends: 'lighthouse:default',
          settings: {
            formFactor: 'mobile',
            throttlingMethod: 'simulate',
            throttling: REGULAR_3G,
            disableStorageReset: false,
          },
        },
      ).finally(() => chrome.kill());
      if (process.env.LIGHTHOUSE_REPORTS)
        (await import('node:fs')).writeFileSync(
          `${process.env.LIGHTHOUSE_REPORTS}/${path.slice(1)}-${language}.json`,
          JSON.stringify(lhr),
        );
      if (lhr.runtimeError) throw new Error(`${path} ${language}: ${lhr.runtimeError.message}`);
      if (new URL(lhr.finalDisplayedUrl).pathname !== path)
        throw new Error(`${path} ${language}: Lighthouse ended on ${lhr.finalDisplayedUrl}`);
      const label = metric === 'interactive' ? 'time to interactive' : 'first contentful paint';
      const seconds = lhr.audits[metric].numericValue / 1000;
      const fcp = lhr.audits['first-contentful-paint'].numericValue / 1000;
      const accessibility = Math.round(lhr.categories.accessibility.score * 100);
      const failing = Object.values(lhr.audits).filter(
        (audit) =>
          audit.scoreDisplayMode === 'binary' &&
          audit.score === 0 &&
          lhr.categories.accessibility.auditRefs.some((ref) => ref.id === audit.id),
      );
      console.log(
        `  ${path.padEnd(11)} ${language} ${label} ${seconds.toFixed(2)} s (budget ${budget} s)` +
          (metric === 'interactive' ? `, first contentful paint ${fcp.toFixed(2)} s` : '') +
          `, accessibility ${accessibility}${failing.length ? ` (failing: ${failing.map((audit) => audit.id).join(', ')})` : ''}`,
      );
    }
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { withSmallPortal } = await import('./small-portal.mjs');
  await withSmallPortal(async (url, session) => {
    console.log('Lighthouse, first visit, simulated Regular 3G:');
    await lighthouseFigures(url, session);
  });
}
