// `restic restore <snapshot> --target DIR`: writes the snapshot's files under DIR at their original
// absolute paths (DIR/home/…/staging/<epoch>/sanad.db). 0.14 prints no JSON progress for restore,
// so progress is what the caller measures on disk; `--include`/`--exclude` narrow what is written.
import { runRestic, type ResticRuntime } from './run.js';
import type { ResticRepo } from './repo.js';

export interface RestoreOptions {
  target: string;
  /** Absolute paths inside the snapshot to restore (all when empty). */
  include?: readonly string[];
  /** Absolute paths inside the snapshot never to write (the vault key, for one). */
  exclude?: readonly string[];
  signal?: AbortSignal;
}

const SNAPSHOT_ID = /^[0-9a-f]{8,64}$/;

export function assertSnapshotId(id: string): void {
  // Never `latest` (newest snapshot time is not newest data) and never anything option-like.
  if (!SNAPSHOT_ID.test(id)) throw new Error(`"${id}" is not a restic snapshot id; give the id from the generation list.`);
}

export async function restore(rt: ResticRuntime, repo: ResticRepo, snapshotId: string, options: RestoreOptions): Promise<void> {
  assertSnapshotId(snapshotId);
  const args = ['restore', snapshotId, `--target=${options.target}`];
  for (const p of options.include ?? []) args.push(`--include=${p}`);
  for (const p of options.exclude ?? []) args.push(`--exclude=${p}`);
  await runRestic(rt, repo, { args, json: false, signal: options.signal });
}
