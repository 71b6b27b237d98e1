// One running appliance per data dir. Two would each run restart recovery over the other's live
// tasks. The lock is an exclusive SQLite lock on a side file: the OS drops it when the process
// dies, even by SIGKILL, so there is no stale lock to clean up by hand.
import { readFileSync } from 'node:fs';
import { tryFileLock, type FileLock } from '../store/file-lock.js';
import { instanceLockPath, serviceFilePath } from '../files/data-dir-layout.js';

export class AlreadyRunningError extends Error {
  constructor(dataDir: string, detail: string) {
    super(`Another Sanad is already running on ${dataDir}${detail}; stop it first, or use another --data-dir.`);
    this.name = 'AlreadyRunningError';
  }
}

export type InstanceLock = FileLock;

export function acquireInstanceLock(dataDir: string): InstanceLock {
  const lock = tryFileLock(instanceLockPath(dataDir));
  if (!lock) throw new AlreadyRunningError(dataDir, describeRunning(dataDir));
  return lock;
}

function describeRunning(dataDir: string): string {
  try {
    const info: unknown = JSON.parse(readFileSync(serviceFilePath(dataDir), 'utf8'));
    if (typeof info === 'object' && info !== null && 'pid' in info && 'url' in info) return ` (pid ${String(info.pid)}, ${String(info.url)})`;
  } catch {
    // no service.json: the other instance is a CLI command or still starting
  }
  return '';
}
