// The first search on /receipts, as a customer on a phone makes it on a first visit: from the first tap
// in the search box, through typing three characters, to the filtered list on the screen. Regular 3G
// (300 ms round trips, 700 kbit/s: lib/slow-link.mjs, which slows the service worker's fetches too) and a
// 4x slower CPU; a browser context of its own for every run (empty cache), the median of three in
// English and in Dutch, each run a search the portal has not seen. Used by scripts/bench.mjs; `node scripts/first-search.mjs` runs it alone against a small
// portal (BENCH_RECEIPTS, default 2,000).
import { chromium } from '@playwright/test';
import { fileURLToPath } from 'node:url';
import { CHROMIUM_ARGS, chromiumPath } from '../tests/support/chromium.ts';
import { startSlowLink } from './lib/slow-link.mjs';

const RUNS = 3;
const BUDGET_SECONDS = 1.2;
const REGULAR_3G = { rttMs: 300, kbps: 700 };
const CPU_SLOWDOWN = 4;
/** A quick thumb: the pause between two typed characters. */
const KEY_DELAY_MS = 120;
const PHONE = {
  viewport: { width: 390, height: 844 },
  deviceScaleFactor: 2,
  isMobile: true,
  hasTouch: true,
};
const LANGUAGES = { en: 'en-US', nl: 'nl-NL' };

/** Prints the median time of the first search for `baseUrl`, signed in as `customerCookie` (`name=value`). */
export async function firstSearchFigures(baseUrl, customerCookie) {
  const terms = await unseenTerms(baseUrl, customerCookie, RUNS * Object.keys(LANGUAGES).length);
  const browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
  try {
    for (const [language, locale] of Object.entries(LANGUAGES)) {
      const times = [];
      for (let run = 0; run < RUNS; run += 1) {
        // A link of its own for every run: nothing left in flight by the one before.
        const link = await startSlowLink(baseUrl, REGULAR_3G);
        times.push(
          await firstSearch(browser, link.url, customerCookie, locale, terms.pop()).finally(
            link.close,
          ),
        );
      }
      const median = [...times].sort((a, b) => a - b)[Math.floor(RUNS / 2)];
      console.log(
        `  first search on /receipts, ${language}: ${(median / 1000).toFixed(2)} s (budget ${BUDGET_SECONDS} s; runs ${times.map((time) => (time / 1000).toFixed(2)).join(', ')} s)`,
      );
    }
  } finally {
    await browser.close();
  }
}

/** Three-letter pieces of the shippers' and consignees' names on the first page, each a search nobody has made yet. */
async function unseenTerms(baseUrl, cookie, count) {
  const response = await fetch(`${baseUrl}/api/receipts?limit=100`, {
    headers: { Cookie: cookie },
  });
  if (!response.ok) throw new Error(`/api/receipts: ${response.status}`);
  const names = (await response.json()).data
    .flatMap((receipt) => [receipt.shipperName, receipt.consigneeName])
    .map((name) => name.toLowerCase());
  const terms = new Set();
  for (const name of names)
    for (let start = 1; start + 3 <= name.length; start += 1) {
      const term = name.slice(start, start + 3);
      if (/^[a-z]{3}$/.test(term)) terms.add(term);
    }
  if (terms.size < count) throw new Error(`only ${terms.size} search terms found`);
  // Spread over the names rather than the first name's pieces, which would find much the same receipts.
  return [...terms]
    .filter((_, index, all) => index % Math.floor(all.length / count) === 0)
    .slice(0, count);
}

/** Milliseconds from the tap in the search box to the list filtered by `term`. */
async function firstSearch(browser, baseUrl, cookie, locale, term) {
  const context = await browser.newContext({ ...PHONE, locale });
  const [name, value] = cookie.split('=');
  await context.addCookies([{ name, value, url: baseUrl }]);
  const page = await context.newPage();
  await (
    await context.newCDPSession(page)
  ).send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
  try {
    // The customer taps once the page has loaded: its list is on the screen.
    await page.goto(`${baseUrl}/receipts`, { waitUntil: 'load' });
    const searchBox = page.getByRole('searchbox').first();
    const unfiltered = await page.locator('tbody').first().textContent();
    // Timed by the page's clock: from the tap's own event to the frame that shows the filtered list.
    await page.evaluate(() => {
      for (const type of ['touchstart', 'pointerdown'])
        globalThis.document.addEventListener(
          type,
          (event) => (globalThis.firstTapAt ??= event.timeStamp),
          { capture: true },
        );
    });
    await searchBox.tap();
    await page.keyboard.type(term, { delay: KEY_DELAY_MS });
    // Filtered: the address holds the search, the list is not loading, and its rows have changed.
    const shown = await page.waitForFunction(
      ({ term, unfiltered }) => {
        if (new URLSearchParams(globalThis.location.search).get('search') !== term) return false;
        const list = globalThis.document.querySelector('section[aria-busy]');
        if (!list || list.getAttribute('aria-busy') === 'true') return false;
        return (
          list.querySelector('tbody')?.textContent !== unfiltered &&
          performance.now() - globalThis.firstTapAt
        );
      },
      { term, unfiltered },
      { polling: 'raf', timeout: 30_000 },
    );
    return await shown.jsonValue();
  } finally {
    await context.close();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { withSmallPortal } = await import('./small-portal.mjs');
  await withSmallPortal(async (url, session, receipts) => {
    console.log(
      `First search, Regular 3G (300 ms round trips, 700 kbit/s, 4x CPU slowdown), ${receipts}-receipt sandbox:`,
    );
    await firstSearchFigures(url, session);
  });
}
