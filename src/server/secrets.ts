/** APP_SECRET, or one generated on first start and kept beside the database (mode 0600). */
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { config } from './config';

let appSecret: string | undefined;

export function loadAppSecret(): string {
  if (appSecret) return appSecret;
  if (config.appSecret) return (appSecret = config.appSecret);
  const file = config.appSecretFile;
  try {
    appSecret = readFileSync(file, 'utf8').trim();
  } catch {
    mkdirSync(config.dataDir, { recursive: true });
    const generated = randomBytes(32).toString('base64url');
    // 'wx' refuses to overwrite a secret another process wrote in the meantime.
    try {
      writeFileSync(file, `${generated}\n`, { mode: 0o600, flag: 'wx' });
      appSecret = generated;
    } catch {
      appSecret = readFileSync(file, 'utf8').trim();
    }
  }
  if (!appSecret) throw new Error(`${file} is empty: delete it or set APP_SECRET`);
  return appSecret;
}
