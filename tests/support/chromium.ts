/** Finds the system Chromium (Debian's packages); Playwright never downloads a browser here. */
import { existsSync } from 'node:fs';

const FULL_BROWSERS = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/snap/bin/chromium'];
/**
 * Chromium's headless shell (Debian's chromium-headless-shell): the same engine without the browser's
 * own UI process work. The browser tier took a quarter less time on it: on two quiet cores, the layout
 * and accessibility sweeps 189 → 142 s, the whole tier 499 → 391 s (two workers).
 */
const HEADLESS_SHELLS = ['/usr/bin/chromium-headless-shell'];

function firstFound(candidates: (string | undefined)[]): string {
  const found = candidates.find(
    (candidate): candidate is string => Boolean(candidate) && existsSync(candidate!),
  );
  if (!found)
    throw new Error(
      'No Chromium found: install it (apt-get install -y chromium chromium-headless-shell) or set CHROMIUM_PATH.',
    );
  return found;
}

/** The full browser, as customers run it: what Lighthouse and the benchmarks measure. */
export function chromiumPath(): string {
  return firstFound([process.env.CHROMIUM_PATH, ...FULL_BROWSERS]);
}

/** The browser the tests drive: the headless shell where it is installed, else the full browser. */
export function testChromiumPath(): string {
  return firstFound([process.env.CHROMIUM_PATH, ...HEADLESS_SHELLS, ...FULL_BROWSERS]);
}

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-dev-shm-usage',
];
