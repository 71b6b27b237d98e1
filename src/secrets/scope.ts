// Secrets belong to one data dir: their keychain accounts carry a short hash of its absolute path,
// so two data dirs (a live one and a restored copy) never read or overwrite each other's secrets.
import { createHash } from 'node:crypto';
import { realpathSync } from 'node:fs';
import { resolve } from 'node:path';

export function dataDirScope(dataDir: string): string {
  let path = resolve(dataDir);
  try {
    path = realpathSync(path);
  } catch {
    // not created yet: its resolved path is what it will be
  }
  return createHash('sha256').update(path, 'utf8').digest('hex').slice(0, 16);
}
