/** APP_SECRET, or one generated on first start and kept beside the database (mode 0600). */
import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { config } from './config';

let appSecret: string | undefined;

export function loadAppSecret(): string {
  if (appSecret) return appSecret;
  if (config.appSecret) return (appSecret = config.appSecret);
  const file = config.appSecretFile;
  try {
    appSecret = readFileSync(file, 'utf8').trim();
  } catch {
    mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
    const generated = randomBytes(32).toString('base64url');
    // Written whole under a name of its own, then linked into place: a link never replaces a secret
    // another process put there meanwhile, and nobody ever reads a file that is created but not yet written.
    const incoming = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
    writeFileSync(incoming, `${generated}\n`, { mode: 0o600, flag: 'wx' });
    try {
      linkSync(incoming, file);
      appSecret = generated;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      appSecret = readFileSync(file, 'utf8').trim();
    } finally {
      rmSync(incoming, { force: true });
    }
  }
  if (!appSecret) throw new Error(`${file} is empty: delete it or set APP_SECRET`);
  return appSecret;
}
