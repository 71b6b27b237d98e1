// `restic forget ID`: removes one snapshot by id (no prune). The connection test uses it to prove
// a remote accepts deletes as well as writes.
import { runRestic, type ResticRuntime } from './run.js';
import type { ResticRepo } from './repo.js';

export async function forgetSnapshot(rt: ResticRuntime, repo: ResticRepo, id: string, options: { signal?: AbortSignal } = {}): Promise<void> {
  if (!/^[0-9a-f]{8,64}$/.test(id)) throw new Error(`"${id}" is not a restic snapshot id.`);
  await runRestic(rt, repo, { args: ['forget', '--', id], json: false, signal: options.signal });
}
