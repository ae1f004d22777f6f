// The file import's figures (run by `npm run bench` after bench.mjs, or alone after a build): a
// 100,000-row CSV (one row per package, a quarter of the receipts with two) uploaded to a PROVIDER=file
// portal started from the build, timed from the upload's start to its answer, with the server's V8 heap
// (nodejs_heap_size_used_bytes from /metrics) and its resident memory sampled meanwhile. Budgets: 30 s, 150 MB of heap growth.
// BENCH_DATABASE_URL runs it on PostgreSQL, as bench.mjs does.
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { ADMIN_PASSWORD, startPortal, testPostgresUrl } from '../tests/support/portal.ts';

const ROWS = Number(process.env.BENCH_IMPORT_ROWS || 100_000);
const METRICS_TOKEN = 'bench-imports-metrics-token';
const SAMPLE_MS = 100;
const MB = 1024 * 1024;

/** The CSV a forwarder's list view exports: English headers, US dates with AM/PM, kilograms, quoted commas. */
function exportCsv(rows) {
  const lines = [
    'WR #,Date Received,Shipper,Consignee,Pcs,Weight (kg),Volume (m3),Destination,Status,Tracking #,Description',
  ];
  let receipt = 0;
  while (lines.length <= rows) {
    receipt += 1;
    const packages = receipt % 4 === 0 ? 2 : 1;
    for (let item = 0; item < packages && lines.length <= rows; item += 1) {
      const day = (receipt % 28) + 1;
      lines.push(
        `WR-${String(receipt).padStart(7, '0')},06/${String(day).padStart(2, '0')}/2026 ${(receipt % 12) + 1}:15 PM,"Amazon.com, Inc.",Consignee ${receipt % 500},${item + 1},${(receipt % 40) + 0.5},0.0${receipt % 9},Paramaribo,OnHand,1ZBENCH${receipt}X${item},"Shoes, size ${receipt % 12}"`,
      );
    }
  }
  return Buffer.from(`\uFEFF${lines.join('\r\n')}\r\n`, 'utf8');
}

console.log(
  `\nFile import: ${ROWS.toLocaleString('en-US')}-row CSV into a PROVIDER=file portal on ${testPostgresUrl ? 'PostgreSQL' : 'SQLite'} (budgets: 30 s, heap growth 150 MB)`,
);
const csv = exportCsv(ROWS);
const portal = await startPortal({ PROVIDER: 'file', METRICS_TOKEN });
try {
  const login = await fetch(`${portal.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: portal.url },
    body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }),
  });
  const cookie = login.headers.getSetCookie()[0].split(';')[0];
  const heapUsed = async () => {
    const text = await (
      await fetch(`${portal.url}/metrics`, {
        headers: { Authorization: `Bearer ${METRICS_TOKEN}` },
      })
    ).text();
    return Number(/^nodejs_heap_size_used_bytes (\S+)/m.exec(text)[1]);
  };
  const rss = () =>
    Number(/^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${portal.pid}/status`, 'utf8'))[1]) *
    1024;
  const heapBefore = await heapUsed();
  const rssBefore = rss();
  let heapHighest = heapBefore;
  let rssHighest = rssBefore;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      heapHighest = Math.max(heapHighest, await heapUsed().catch(() => 0));
      rssHighest = Math.max(rssHighest, rss());
      await new Promise((resolve) => setTimeout(resolve, SAMPLE_MS));
    }
  })();
  const form = new FormData();
  form.append('file', new Blob([csv], { type: 'text/csv' }), 'bench.csv');
  const started = performance.now();
  const response = await fetch(`${portal.url}/api/admin/imports`, {
    method: 'POST',
    headers: { Cookie: cookie, Origin: portal.url },
    body: form,
  });
  const body = await response.json();
  const seconds = (performance.now() - started) / 1000;
  sampling = false;
  await sampler;
  if (!response.ok)
    throw new Error(`import: ${response.status} ${JSON.stringify(body).slice(0, 500)}`);
  const { created, updated, unchanged, errors } = body.data;
  const load = loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');
  console.log(
    `  ${(csv.length / MB).toFixed(1)} MB, ${created.toLocaleString('en-US')} receipts created (${updated} updated, ${unchanged} unchanged, ${errors.length} row errors) in ${seconds.toFixed(1)} s (budget 30 s)`,
  );
  console.log(
    `  server heap ${(heapBefore / MB).toFixed(1)} MB before, ${(heapHighest / MB).toFixed(1)} MB at most (+${((heapHighest - heapBefore) / MB).toFixed(1)} MB, budget 150 MB); RSS +${((rssHighest - rssBefore) / MB).toFixed(1)} MB`,
  );
  console.log(`  load average (1, 5, 15 min) at the end: ${load}`);
  const again = performance.now();
  const second = await fetch(`${portal.url}/api/admin/imports`, {
    method: 'POST',
    headers: { Cookie: cookie, Origin: portal.url },
    body: form,
  });
  const secondBody = await second.json();
  console.log(
    `  the same file again: ${secondBody.data?.unchanged?.toLocaleString('en-US')} unchanged in ${((performance.now() - again) / 1000).toFixed(1)} s`,
  );
} finally {
  await portal.stop();
}
