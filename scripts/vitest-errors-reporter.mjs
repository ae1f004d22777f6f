// A Vitest reporter that keeps what the JSON reporter drops: the errors of a failed hook (a describe's
// beforeAll leaves its tests skipped and no failed test) and the unhandled errors that fail a run whose
// tests all passed. Written beside the JSON report (unit.json → unit.errors.json) for
// scripts/test-summary.mjs, which names them at the end of the log: CI keeps only its tail.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, relative } from 'node:path';

const firstLines = (error) =>
  String(error?.stack || error?.message || error?.name || error)
    .split('\n')
    .slice(0, 6)
    .join('\n');

export default class ErrorsReporter {
  onInit(vitest) {
    const json = vitest.config.outputFile?.json;
    this.file = json ? json.replace(/\.json$/, '.errors.json') : undefined;
  }

  onTestRunEnd(testModules, unhandledErrors) {
    if (!this.file) return;
    const failed = [];
    for (const testModule of testModules) {
      const file = relative('.', testModule.moduleId);
      for (const error of testModule.errors())
        failed.push({ file, where: '', error: firstLines(error) });
      for (const suite of testModule.children.allSuites())
        for (const error of suite.errors())
          failed.push({ file, where: suite.fullName, error: firstLines(error) });
    }
    const unhandled = unhandledErrors.map(firstLines);
    mkdirSync(dirname(this.file), { recursive: true });
    writeFileSync(this.file, JSON.stringify({ failed, unhandled }, null, 2));
  }
}
