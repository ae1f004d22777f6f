/** Finds the system Chromium (Debian's package); Playwright never downloads a browser here. */
import { existsSync } from 'node:fs';

const CANDIDATES = [
  process.env.CHROMIUM_PATH,
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/snap/bin/chromium',
];

export function chromiumPath(): string {
  const found = CANDIDATES.find(
    (candidate): candidate is string => Boolean(candidate) && existsSync(candidate!),
  );
  if (!found)
    throw new Error(
      'No Chromium found: install it (apt-get install -y chromium) or set CHROMIUM_PATH.',
    );
  return found;
}

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-dev-shm-usage',
];
