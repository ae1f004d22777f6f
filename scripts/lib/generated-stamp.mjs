// Whether a generated file is current: a digest of everything it is made from, kept after each
// generation (in .tmp/generated/), so that a run whose inputs did not change skips the generation.
// `npm test` asked for the message catalogue three times and the API types twice, about 15 s on a 2-core
// machine; `npm run test:fast` paid 12 s of them before its first test.
import { createHash } from 'node:crypto';
import { existsSync, globSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The digest of the files `patterns` match under `root` (less those `exclude` matches): their paths
 * and contents, in path order, so that an added, removed, renamed or changed file changes it.
 */
export function inputsDigest(root, patterns, exclude = []) {
  const files = [
    ...new Set(
      patterns.flatMap((pattern) =>
        globSync(pattern, { cwd: root, exclude, withFileTypes: true })
          .filter((entry) => entry.isFile())
          .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name))),
      ),
    ),
  ].sort();
  const hash = createHash('sha256');
  for (const file of files) {
    const content = readFileSync(path.join(root, file));
    hash.update(`${file}\0${content.byteLength}\0`).update(content);
  }
  return hash.digest('hex');
}

/** A generation's record: `name`'s digest, and the outputs it must find to count as current. */
export class GeneratedStamp {
  constructor(root, name, outputs) {
    this.file = path.join(root, '.tmp', 'generated', `${name}.sha256`);
    this.outputs = outputs.map((output) => path.join(root, output));
  }

  /** Whether the outputs exist and were generated from inputs of this digest. */
  isCurrent(digest) {
    if (!this.outputs.every((output) => existsSync(output))) return false;
    try {
      return readFileSync(this.file, 'utf8') === digest;
    } catch {
      return false;
    }
  }

  /**
   * Called before a generation: one that fails midway leaves no record, even for inputs that are then
   * put back as they were.
   */
  forget() {
    rmSync(this.file, { force: true });
  }

  /** Called once a generation succeeded. */
  record(digest) {
    mkdirSync(path.dirname(this.file), { recursive: true });
    writeFileSync(this.file, digest);
  }
}
