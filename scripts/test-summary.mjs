// Adds up the results of every tier of `npm test` (unit and in-process, process, PostgreSQL, browser) into one closing line,
// and names every failed or flaky test with its first error line: CI keeps only the tail of a long log.
import { existsSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { stripVTControlCharacters } from 'node:util';

const read = (file) => JSON.parse(readFileSync(file, 'utf8'));
// Reporters colour their messages.
const firstLine = (text = '') => stripVTControlCharacters(text).trim().split('\n')[0].slice(0, 300);
const named = [];
let passed = 0;
let failed = 0;
let skipped = 0;
/** Failures outside any test: a hook's, an import's, an unhandled error. */
let outsideTests = 0;

for (const suite of ['unit-and-in-process', 'process', 'pg']) {
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
  for (const file of result.testResults) {
    const failures = file.assertionResults.filter((test) => test.status === 'failed');
    for (const test of failures) {
      named.push(
        `${suite} FAILED ${relative('.', file.name)} › ${test.fullName}: ${firstLine(test.failureMessages[0])}`,
      );
    }
  }
  // What failed outside any test (a hook, an import, an unhandled error), from
  // scripts/vitest-errors-reporter.mjs: the JSON report marks such a file failed without saying why.
  const errorsFile = `.tmp/results/${suite}.errors.json`;
  if (existsSync(errorsFile)) {
    const { failed: hooks, unhandled } = read(errorsFile);
    for (const { file, where, error } of hooks) {
      named.push(
        `${suite} FAILED ${file}${where ? ` › ${where}` : ''} (outside a test): ${firstLine(error)}`,
      );
      outsideTests += 1;
    }
    for (const error of unhandled) {
      named.push(`${suite} UNHANDLED ERROR: ${firstLine(error)}`);
      outsideTests += 1;
    }
  }
}

const report = read('.tmp/results/e2e.json');
const e2e = report.stats;
passed += e2e.expected + e2e.flaky;
failed += e2e.unexpected;
skipped += e2e.skipped;
console.log(
  `e2e: ${e2e.expected + e2e.flaky} passed, ${e2e.unexpected} failed${e2e.flaky ? ` (${e2e.flaky} flaky, passed on retry)` : ''}`,
);
const visit = (suite, path) => {
  for (const spec of suite.specs ?? []) {
    for (const test of spec.tests) {
      if (test.status !== 'unexpected' && test.status !== 'flaky') continue;
      const failedRun = test.results.find(
        (run) => run.status !== 'passed' && run.status !== 'skipped',
      );
      const error = failedRun?.error?.message ?? failedRun?.errors?.[0]?.message;
      const label = test.status === 'flaky' ? 'FLAKY' : 'FAILED';
      named.push(
        `e2e ${label} ${spec.file}:${spec.line} › ${[...path, spec.title].join(' › ')}: ${firstLine(error)}`,
      );
    }
  }
  for (const child of suite.suites ?? [])
    visit(child, child.title === child.file ? path : [...path, child.title]);
};
for (const suite of report.suites ?? []) visit(suite, []);
// Errors outside any test: a setup's, a teardown's, a web server that did not start.
for (const error of report.errors ?? []) {
  named.push(`e2e FAILED outside a test: ${firstLine(error.message ?? error.value)}`);
  outsideTests += 1;
}

for (const line of named) console.log(line);
console.log(
  `Tests: ${passed} passed, ${failed} failed, ${skipped} skipped` +
    (outsideTests ? `; ${outsideTests} failed outside a test` : ''),
);
process.exit(failed === 0 && outsideTests === 0 && passed > 0 ? 0 : 1);
