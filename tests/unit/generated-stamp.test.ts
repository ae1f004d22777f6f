/**
 * `npm run messages` and `npm run api-types` skip a generation whose inputs did not change
 * (scripts/lib/generated-stamp.mjs). A file they would have written differently must never be taken
 * as current: any change to an input, and any output gone, means generating again.
 */
import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GeneratedStamp, inputsDigest } from '../../scripts/lib/generated-stamp.mjs';

let root: string;
const PATTERNS = ['src/**/*', 'messages/*.json'];
const EXCLUDED = ['src/generated/**'];

function write(file: string, content: string): void {
  mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
  writeFileSync(path.join(root, file), content);
}

const digest = () => inputsDigest(root, PATTERNS, EXCLUDED);

beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'generated-stamp-'));
  write('src/a.ts', 'export const a = 1;');
  write('src/deep/b.ts', 'export const b = 2;');
  write('messages/en.json', '{"hello":"Hello"}');
  write('src/generated/out.ts', 'generated');
});

afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('the digest of the inputs', () => {
  it('stays the same while no input changes', () => {
    expect(digest()).toBe(digest());
  });

  it('changes when an input changes, is added, removed or renamed', () => {
    const first = digest();
    write('src/deep/b.ts', 'export const b = 3;');
    const changed = digest();
    write('messages/nl.json', '{"hello":"Hallo"}');
    const added = digest();
    rmSync(path.join(root, 'messages/nl.json'));
    const removed = digest();
    renameSync(path.join(root, 'src/a.ts'), path.join(root, 'src/c.ts'));
    const renamed = digest();
    expect(new Set([first, changed, added, renamed]).size).toBe(4);
    expect(removed).not.toBe(added);
    expect(removed).toBe(changed);
  });

  it('leaves out the excluded files: what the generation writes is no input of it', () => {
    const before = digest();
    write('src/generated/out.ts', 'generated again');
    expect(digest()).toBe(before);
  });
});

describe('a generation’s record', () => {
  const stamp = () => new GeneratedStamp(root, 'things', ['src/generated/out.ts']);

  it('is current only for the inputs it was recorded with', () => {
    expect(stamp().isCurrent(digest())).toBe(false);
    stamp().record(digest());
    expect(stamp().isCurrent(digest())).toBe(true);
    write('src/a.ts', 'export const a = 2;');
    expect(stamp().isCurrent(digest())).toBe(false);
  });

  it('is not current once an output is gone', () => {
    stamp().record(digest());
    rmSync(path.join(root, 'src/generated/out.ts'));
    expect(stamp().isCurrent(digest())).toBe(false);
  });

  it('is forgotten when a generation starts, so that one that fails leaves nothing current', () => {
    stamp().record(digest());
    stamp().forget();
    expect(stamp().isCurrent(digest())).toBe(false);
  });
});
