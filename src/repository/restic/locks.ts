// The locks in a repository (`restic list locks`, then `restic cat lock ID` for each), always read
// with `--no-lock`: looking must not add a lock of its own. Whether a lock is stale is the caller's
// call (restic's rule: older than 30 minutes, or made on this host by a process that is gone).
import { say } from '../../contract/said/index.js';
import { ResticError } from './errors.js';
import { listIds } from './list.js';
import { lockFile } from './messages.js';
import { runRestic, type ResticRuntime } from './run.js';
import type { ResticRepo } from './repo.js';

export interface ResticLock {
  id: string;
  /** When the lock was made or last refreshed (ISO, the locker's clock). */
  time: string;
  exclusive: boolean;
  hostname: string;
  username: string;
  pid: number;
}

export async function listLocks(rt: ResticRuntime, repo: ResticRepo, options: { signal?: AbortSignal } = {}): Promise<ResticLock[]> {
  const ids = await listIds(rt, repo, 'locks', options);
  const locks: ResticLock[] = [];
  for (const id of ids) {
    const lines: string[] = [];
    try {
      await runRestic(rt, repo, {
        args: ['cat', 'lock', id],
        json: false,
        noLock: true,
        signal: options.signal,
        onLine: (line) => {
          if (lines.length < 1000) lines.push(line);
          return true;
        },
      });
    } catch (error) {
      // Listed a moment ago and gone now: its owner finished and removed it.
      if (error instanceof ResticError && error.kind === 'failed') continue;
      throw error;
    }
    const parsed = lockFile.safeParse(parseJson(lines.join('\n')));
    if (!parsed.success) throw new ResticError('failed', say('restic.bad_lock', { lock: id.slice(0, 8), repo: repo.name }));
    locks.push({ id, ...parsed.data });
  }
  return locks;
}

function parseJson(text: string): unknown {
  try {
    const value: unknown = JSON.parse(text);
    return value;
  } catch {
    return undefined;
  }
}
