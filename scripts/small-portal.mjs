// The small portal that `node scripts/page-weights.mjs` and `node scripts/lighthouse-figures.mjs` run
// against on their own (the bench measures its 100,000-receipt portal instead): a sandbox of
// BENCH_RECEIPTS (default 2,000) receipts and its demo customer, signed in.
const DEMO_PASSWORD = 'bench-demo-password';

/** Starts the portal, signs the demo customer in, runs `work(url, sessionCookie)` and stops it. */
export async function withSmallPortal(work) {
  const { startPortal } = await import('../tests/support/portal.ts');
  const receipts = process.env.BENCH_RECEIPTS || '2000';
  const portal = await startPortal({ DEMO_USERS: 'true', DEMO_PASSWORD, SANDBOX_RECEIPTS: receipts, MAP_TILE_URL: 'http://127.0.0.1:9/{z}/{x}/{y}.png' });
  try {
    // The demo customer appears once the first sync has mirrored the sandbox.
    let response;
    for (let attempt = 0; attempt < 120 && !response?.ok; attempt += 1) {
      if (attempt) await new Promise((resolve) => setTimeout(resolve, 500));
      response = await fetch(`${portal.url}/api/auth/login`, {
        method: 'POST',
        headers: { Origin: portal.url, 'Content-Type': 'application/json' },
        body: JSON.stringify({ username: 'demo', password: DEMO_PASSWORD }),
      });
    }
    if (!response.ok) throw new Error(`sign-in: ${response.status}`);
    const session = response.headers.getSetCookie().find((cookie) => cookie.startsWith('portal_session='));
    await work(portal.url, session.split(';')[0], receipts);
  } finally {
    await portal.stop();
  }
}
