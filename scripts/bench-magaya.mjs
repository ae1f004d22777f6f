// The Magaya figures of `npm run bench` (also alone: `node scripts/bench-magaya.mjs` after a build):
// a portal from the build reads its 100,000-receipt sandbox as Magaya (SANDBOX_PROTOCOL=magaya) over
// HTTP. Budgets: the first full read ≤ 90 s; a sync that finds 50 changes among them ≤ 3 s, fetching
// ≤ 60 receipts. The load average is printed beside each, as the machine may be shared.
// The third, the heap growth while a 30 MB answer is read (≤ 100 MB), comes from scripts/magaya-heap.mjs,
// in a process of its own; tests/in-process/magaya-xml-heap.test.ts holds the client to it.
import { execFile } from 'node:child_process';
import { loadavg } from 'node:os';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { startPortal, ADMIN_PASSWORD } from '../tests/support/portal.ts';

const run = promisify(execFile);
const RECEIPTS = Number(process.env.BENCH_RECEIPTS || 100_000);
const CHANGES = 50;

const load = () =>
  `load average ${loadavg()
    .map((value) => value.toFixed(2))
    .join(' ')}`;

export async function magayaFigures() {
  console.log(
    `\nMagaya (SANDBOX_PROTOCOL=magaya), a ${RECEIPTS.toLocaleString('en-US')}-receipt sandbox read through CSSoapService:`,
  );
  const portal = await startPortal({
    SANDBOX_PROTOCOL: 'magaya',
    SANDBOX_CONTROL: 'true',
    SANDBOX_RECEIPTS: String(RECEIPTS),
    // The data moves only when the figure says so; no scheduled sync comes between.
    SANDBOX_CHANGE_SECONDS: '86400',
    SYNC_INTERVAL_SECONDS: '86400',
    LOG_LEVEL: 'debug',
  });
  const waitForOutput = async (pattern, timeoutMs) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const match = pattern.exec(portal.output());
      if (match) return match;
      if (Date.now() > deadline)
        throw new Error(`no "${pattern}" in the portal's output:\n${portal.output().slice(-4000)}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  };
  const call = (method, path, cookie, body) =>
    fetch(`${portal.url}${path}`, {
      method,
      headers: {
        ...(cookie && { Cookie: cookie }),
        ...(body && { 'Content-Type': 'application/json' }),
        Origin: portal.url,
      },
      body: body && JSON.stringify(body),
    });
  try {
    const full = await waitForOutput(
      /Receipt mirror: full sync of (\d+) receipts in ([\d.]+) s/,
      600_000,
    );
    const session = /Magaya: read (\d+) receipts by date in one session in ([\d.]+) s/.exec(
      portal.output(),
    );
    console.log(
      `  first full read: ${Number(full[1]).toLocaleString('en-US')} receipts in ${full[2]} s (budget 90 s; ${load()})`,
    );
    if (session)
      console.log(
        `    of which reading Magaya in one session: ${session[2]} s; the rest is writing the mirror`,
      );

    const admin = (
      await call('POST', '/api/auth/login', null, { username: 'admin', password: ADMIN_PASSWORD })
    ).headers
      .getSetCookie()[0]
      .split(';')[0];
    // Whatever the start's own sync left is out of the way first.
    await call('POST', '/api/sync', admin);
    const changed = new Set();
    for (let windows = 0; changed.size < CHANGES && windows < 1_000; windows += 1) {
      const window = await (await call('POST', '/sandbox/control/advance')).json();
      for (const id of [...window.advanced, ...window.added, ...window.deleted]) changed.add(id);
    }
    const before = portal.output().length;
    const started = performance.now();
    const outcome = (await (await call('POST', '/api/sync', admin)).json()).data;
    const seconds = (performance.now() - started) / 1000;
    const fetched = /Receipt mirror: sync of (\d+) changed receipts/.exec(
      portal.output().slice(before),
    );
    const reading = /fetched in (\d+) ms/.exec(portal.output().slice(before));
    console.log(
      `  a sync finding ${changed.size} changes: ${seconds.toFixed(2)} s, ${fetched ? fetched[1] : '?'} receipts fetched, ${outcome.written} written, ${outcome.deleted} removed (budget 3 s and 60 receipts; ${load()})`,
    );
    if (reading)
      console.log(
        `    of which reading Magaya's change log and the receipts in one session: ${reading[1]} ms`,
      );
  } finally {
    await portal.stop();
  }
  // In a fresh process, so that nothing else this bench did is in its heap.
  const { stdout } = await run(process.execPath, [
    fileURLToPath(new URL('magaya-heap.mjs', import.meta.url)),
  ]);
  const heap = JSON.parse(stdout.trim().split('\n').pop());
  console.log(
    `  a 30 MB GetNextTransbyDate answer (${heap.receipts.toLocaleString('en-US')} receipts, escaped in its out-parameter) grew the heap by ${(heap.growthBytes / 1024 / 1024).toFixed(1)} MB (budget 100 MB)`,
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await magayaFigures();
