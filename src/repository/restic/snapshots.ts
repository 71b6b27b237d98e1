// `restic snapshots --json`: one JSON array on stdout.
import { say } from '../../contract/said/index.js';
import { runRestic, type ResticRuntime } from './run.js';
import { ResticError } from './errors.js';
import { tagFlag } from './flags.js';
import { snapshotList, type Snapshot } from './messages.js';
import type { ResticRepo } from './repo.js';

export type { Snapshot } from './messages.js';

export async function snapshots(rt: ResticRuntime, repo: ResticRepo, options: { tags?: readonly string[]; signal?: AbortSignal } = {}): Promise<Snapshot[]> {
  const seen: { list?: Snapshot[] } = {};
  const args = ['snapshots'];
  // One --tag with a comma list means "has all of these tags".
  if (options.tags && options.tags.length > 0) args.push(tagFlag(options.tags));
  await runRestic(rt, repo, {
    args,
    json: true,
    signal: options.signal,
    onJson: (value) => {
      const parsed = snapshotList.safeParse(value);
      if (parsed.success) seen.list = parsed.data;
      return parsed.success;
    },
  });
  if (seen.list === undefined) {
    throw new ResticError('failed', say('restic.no_snapshot_list', { repo: repo.name }));
  }
  return seen.list;
}
