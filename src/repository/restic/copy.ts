// `restic copy`: one snapshot of a repository on this machine into another repository, keeping its
// paths, host, time and tags (restic re-encrypts it for the destination). Answers the id the copy
// has there: restic records the source's id as the copy's `original`, so the destination's snapshot
// list names it (copy prints no JSON in 0.14, and its text is not a format to parse).
import { say } from '../../contract/said/index.js';
import { ResticError } from './errors.js';
import type { ResticRepo } from './repo.js';
import { runRestic, type ResticRuntime } from './run.js';
import { snapshots } from './snapshots.js';
import { assertSnapshotId } from './restore.js';

export async function copySnapshot(
  rt: ResticRuntime,
  from: ResticRepo,
  to: ResticRepo,
  snapshotId: string,
  options: { signal?: AbortSignal } = {},
): Promise<string> {
  assertSnapshotId(snapshotId);
  const signal = options.signal ? { signal: options.signal } : {};
  await runRestic(rt, to, { args: ['copy', snapshotId], json: false, fromRepo: from, ...signal });
  const copied = (await snapshots(rt, to, signal)).filter((s) => s.original === snapshotId || (s.original?.startsWith(snapshotId) ?? false));
  const newest = copied.at(-1);
  // restic copies a snapshot once: a second copy of the same one finds the first and adds nothing.
  if (newest === undefined) throw new ResticError('failed', say('restic.copy_not_found', { repo: to.name, snapshot: snapshotId.slice(0, 8) }));
  return newest.id;
}
