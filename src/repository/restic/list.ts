// `restic list <type>`: the ids of a repository's files of one type (index, locks, snapshots, …),
// always read with `--no-lock`. A drill lists the index files before and after its checks: if they
// changed, a backup or a prune wrote meanwhile, and what looked like damage may have been a pack
// moved under the reader.
import { runRestic, type ResticRuntime } from './run.js';
import type { ResticRepo } from './repo.js';

export type ResticFileType = 'index' | 'locks' | 'snapshots' | 'packs' | 'keys';

const ID = /^[0-9a-f]{64}$/;

export async function listIds(rt: ResticRuntime, repo: ResticRepo, type: ResticFileType, options: { signal?: AbortSignal } = {}): Promise<string[]> {
  const ids: string[] = [];
  await runRestic(rt, repo, {
    args: ['list', type],
    json: false,
    noLock: true,
    signal: options.signal,
    onLine: (line) => {
      const id = line.trim();
      if (!ID.test(id)) return false;
      ids.push(id);
      return true;
    },
  });
  return ids.sort();
}
