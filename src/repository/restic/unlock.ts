// `restic unlock`: removes stale locks only (a dead process on this host, or older than restic's
// stale limit). Never `--remove-all`: that would pull the lock out from under a live backup on
// another machine and let a prune delete data it is still writing.
import { runRestic, type ResticRuntime } from './run.js';
import type { ResticRepo } from './repo.js';

export async function unlock(rt: ResticRuntime, repo: ResticRepo, options: { signal?: AbortSignal } = {}): Promise<void> {
  await runRestic(rt, repo, { args: ['unlock'], json: false, signal: options.signal });
}
