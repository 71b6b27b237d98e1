// `restic ls --json <snapshot>`: every path in a snapshot with its type and size, so a drill can
// prove each manifest item is there with the right size without reading (or restoring) any data.
import { say } from '../../contract/said/index.js';
import { ResticError } from './errors.js';
import { lsNode, lsSnapshot } from './messages.js';
import { assertSnapshotId } from './restore.js';
import { runRestic, type ResticRuntime } from './run.js';
import type { ResticRepo } from './repo.js';

export interface LsNode {
  /** Absolute, POSIX form, as backed up. */
  path: string;
  /** `file`, `dir`, `symlink`, … */
  type: string;
  size: number;
}

/** A Sanad snapshot holds a staging folder and a few model files; far more than this is not ours. */
const MAX_NODES = 1_000_000;

export async function ls(rt: ResticRuntime, repo: ResticRepo, snapshotId: string, options: { signal?: AbortSignal } = {}): Promise<LsNode[]> {
  assertSnapshotId(snapshotId);
  const nodes: LsNode[] = [];
  let sawSnapshot = false;
  let tooMany = false;
  await runRestic(rt, repo, {
    args: ['ls', snapshotId],
    json: true,
    signal: options.signal,
    onJson: (value) => {
      const node = lsNode.safeParse(value);
      if (node.success) {
        if (nodes.length < MAX_NODES) nodes.push({ path: node.data.path, type: node.data.type, size: node.data.size });
        else tooMany = true;
        return true;
      }
      if (!lsSnapshot.safeParse(value).success) return false;
      sawSnapshot = true;
      return true;
    },
  });
  if (!sawSnapshot) throw new ResticError('failed', say('restic.ls_no_snapshot', { repo: repo.name, snapshot: snapshotId }));
  if (tooMany) throw new ResticError('failed', say('restic.ls_too_many', { repo: repo.name, snapshot: snapshotId, max: MAX_NODES }));
  return nodes;
}
