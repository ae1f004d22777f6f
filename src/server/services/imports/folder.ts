/**
 * The watched folder (IMPORT_DIR): a file whose size has stopped changing between two looks is claimed
 * with an atomic rename into `processing/` (with several processes only one rename succeeds), imported,
 * and moved to `done/` or `failed/`, its row errors as a CSV beside it. The composition root calls
 * `scan()` on its timer.
 */
import { mkdir, readdir, rename, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Logger } from '../../logger';
import { AppError } from '../../errors';
import { importErrorsCsv } from './errors-csv';
import { importReceipts, type ImportDeps } from './service';

export interface ImportFolderDeps extends ImportDeps {
  log: Logger;
}

const SUBFOLDERS = ['processing', 'done', 'failed'] as const;

/** What one look at the folder did. */
export interface FolderRun {
  files: number;
  written: number;
  removed: number;
}

const NOTHING: FolderRun = { files: 0, written: 0, removed: 0 };

export class ImportFolder {
  /** Sizes seen at the last look, by file name: a file is taken once its size is the same twice. */
  private readonly sizes = new Map<string, number>();
  private scanning: Promise<FolderRun> | undefined;
  private stopped = false;

  constructor(private readonly deps: ImportFolderDeps) {}

  /**
   * One look at the folder; answers how many files it imported. Looks do not overlap. `immediate`
   * ("Sync now") takes every file at once, without waiting for a second look at its size.
   */
  async scan({ immediate = false } = {}): Promise<FolderRun> {
    if (this.stopped) return NOTHING;
    // A look under way is waited for; an immediate one then looks again itself.
    if (this.scanning && immediate) await this.scanning.catch(() => NOTHING);
    this.scanning ??= this.look(immediate).finally(() => {
      this.scanning = undefined;
    });
    return this.scanning;
  }

  /** Shutdown: the file being imported is finished; no look starts after. */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.scanning?.catch(() => NOTHING);
  }

  private async look(immediate: boolean): Promise<FolderRun> {
    const dir = this.deps.config.importDir;
    await Promise.all(SUBFOLDERS.map((sub) => mkdir(path.join(dir, sub), { recursive: true })));
    const entries = await readdir(dir, { withFileTypes: true });
    const present = new Set<string>();
    const run = { ...NOTHING };
    for (const entry of entries) {
      if (!entry.isFile() || entry.name.startsWith('.')) continue;
      present.add(entry.name);
      const size = await stat(path.join(dir, entry.name)).then(
        (info) => info.size,
        () => null,
      );
      if (size === null) continue;
      const before = this.sizes.get(entry.name);
      this.sizes.set(entry.name, size);
      if (before !== size && !immediate) continue;
      if (this.stopped) break;
      this.sizes.delete(entry.name);
      const result = await this.importOne(entry.name);
      if (!result) continue;
      run.files += 1;
      run.written += result.written;
      run.removed += result.removed;
    }
    for (const name of this.sizes.keys()) if (!present.has(name)) this.sizes.delete(name);
    return run;
  }

  /** Claims one file and imports it; null when another process claimed it first. */
  private async importOne(name: string): Promise<{ written: number; removed: number } | null> {
    const dir = this.deps.config.importDir;
    const claimed = path.join(dir, 'processing', `${randomBytes(6).toString('hex')}-${name}`);
    try {
      await rename(path.join(dir, name), claimed);
    } catch {
      return null;
    }
    const stamp = new Date(this.deps.clock.now()).toISOString().replace(/[:.]/g, '-');
    const target = (sub: 'done' | 'failed', suffix = '') =>
      path.join(dir, sub, `${stamp}-${name}${suffix}`);
    try {
      const result = await importReceipts(this.deps, {
        path: claimed,
        fileName: name,
        dryRun: false,
        full: false,
        mapping: {},
        via: 'folder',
        by: null,
      });
      // The row errors first: whoever watches done/ finds them as soon as the file itself is there.
      if (result.errors.length > 0)
        await writeFile(target('done', '.errors.csv'), importErrorsCsv(result.errors));
      await rename(claimed, target('done'));
      const { created, updated, unchanged, removed } = result;
      this.deps.log.info(
        {
          component: 'imports',
          file: name,
          created,
          updated,
          unchanged,
          removed,
          errors: result.errors.length,
        },
        `Imported ${name} from the folder`,
      );
      return { written: created + updated, removed };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      await writeFile(
        target('failed', '.errors.csv'),
        importErrorsCsv([{ row: 0, column: '', message }]),
      );
      await rename(claimed, target('failed'));
      if (!(error instanceof AppError))
        this.deps.log.error(
          { component: 'imports', file: name, err: error },
          `Importing ${name} from the folder failed`,
        );
      else
        this.deps.log.warn({ component: 'imports', file: name }, `${name} was refused: ${message}`);
      return { written: 0, removed: 0 };
    }
  }
}
