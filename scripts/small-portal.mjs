// The small portal that `node scripts/page-weights.mjs` and `node scripts/lighthouse-figures.mjs` run
// against on their own (the bench measures its 100,000-receipt portal instead): a sandbox of
// BENCH_RECEIPTS (default 2,000) receipts and its demo customer, signed in.
const DEMO_PASSWORD = 'bench-demo-password';

/** A session cookie (`name=value`) for the user at the portal of `url`, or null when the sign-in is refused. */
async function sessionAt(url, username, password) {
  const response = await fetch(`${url}/api/auth/login`, {
    method: 'POST',
    headers: { Origin: url, 'Content-Type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  if (!response.ok) return null;
  return response.headers
    .getSetCookie()
    .find((cookie) => cookie.startsWith('portal_session='))
    .split(';')[0];
}

/** Starts the portal, signs the demo customer and the admin in, runs `work(url, customerCookie, receipts, adminCookie)` and stops it. */
export async function withSmallPortal(work) {
  const { ADMIN_PASSWORD, startPortal } = await import('../tests/support/portal.ts');
  const receipts = process.env.BENCH_RECEIPTS || '2000';
  const portal = await startPortal({
    DEMO_USERS: 'true',
    DEMO_PASSWORD,
    SANDBOX_RECEIPTS: receipts,
    MAP_TILE_URL: 'http://127.0.0.1:9/{z}/{x}/{y}.png',
  });
  try {
    // The demo customer appears once the first sync has mirrored the sandbox.
    let customer = null;
    for (let attempt = 0; attempt < 120 && !customer; attempt += 1) {
      if (attempt) await new Promise((resolve) => setTimeout(resolve, 500));
      customer = await sessionAt(portal.url, 'demo', DEMO_PASSWORD);
    }
    if (!customer) throw new Error('the demo customer could not sign in');
    await work(
      portal.url,
      customer,
      receipts,
      await sessionAt(portal.url, 'admin', ADMIN_PASSWORD),
    );
  } finally {
    await portal.stop();
  }
}
