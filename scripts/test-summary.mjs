// Adds up the results of every tier of `npm test` (unit, in-process, process, PostgreSQL, browser) into one closing line.
import { existsSync, readFileSync } from 'node:fs';

const read = (file) => JSON.parse(readFileSync(file, 'utf8'));
let passed = 0;
let failed = 0;
let skipped = 0;

for (const suite of ['unit', 'in-process', 'process', 'pg']) {
  // The PostgreSQL leg is skipped on a machine without PostgreSQL (scripts/test-pg.mjs said so).
  if (suite === 'pg' && !existsSync(`.tmp/results/${suite}.json`)) {
    console.log('pg: skipped (no PostgreSQL server)');
    continue;
  }
  const result = read(`.tmp/results/${suite}.json`);
  passed += result.numPassedTests;
  failed += result.numFailedTests;
  skipped += result.numPendingTests + result.numTodoTests;
  console.log(`${suite}: ${result.numPassedTests} passed, ${result.numFailedTests} failed`);
}

const e2e = read('.tmp/results/e2e.json').stats;
passed += e2e.expected + e2e.flaky;
failed += e2e.unexpected;
skipped += e2e.skipped;
console.log(
  `e2e: ${e2e.expected + e2e.flaky} passed, ${e2e.unexpected} failed${e2e.flaky ? ` (${e2e.flaky} flaky, passed on retry)` : ''}`,
);

console.log(`Tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed === 0 && passed > 0 ? 0 : 1);
