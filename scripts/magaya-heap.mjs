// The bench's third Magaya figure, in a process of its own (scripts/bench-magaya.mjs runs it): the heap
// growth while the portal's SOAP client reads GetNextTransbyDate's answer around a 30 MB list of
// receipts, escaped in its out-parameter as Magaya sends it. Vite loads the client as the portal does
// (TypeScript, the `~` alias). Prints one JSON line: { receipts, growthBytes }.
import { fileURLToPath } from 'node:url';
import { createServer } from 'vite';
import { serveLargeSoapAnswer } from '../tests/support/magaya-large-answer.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const vite = await createServer({
  root,
  configFile: false,
  logLevel: 'error',
  appType: 'custom',
  server: { middlewareMode: true, hmr: false, ws: false },
  optimizeDeps: { noDiscovery: true, include: [] },
  resolve: { alias: { '~': `${root}src` } },
});
const answer = await serveLargeSoapAnswer();
try {
  const { callSoap, soapString } = await vite.ssrLoadModule('/src/server/provider/magaya/soap.ts');
  const before = process.memoryUsage().heapUsed;
  let peak = before;
  let receipts = 0;
  await callSoap(
    { url: answer.url, timeoutMs: 600_000 },
    'GetNextTransbyDate',
    { cookie: soapString('c1') },
    {
      wanted: new Set(['WarehouseReceipt']),
      onElement: () => {
        if (++receipts % 100 === 0) peak = Math.max(peak, process.memoryUsage().heapUsed);
      },
    },
  );
  console.log(JSON.stringify({ receipts, growthBytes: peak - before }));
} finally {
  await answer.close();
  await vite.close();
}
