// `restic restore <snapshot> --target DIR`: writes the snapshot's files under DIR at their original
// absolute paths (DIR/home/…/staging/<epoch>/sanad.db). 0.14 prints no JSON progress for restore,
// so progress is what the caller measures on disk; `--include`/`--exclude` narrow what is written.
// restic reads those as glob patterns and refuses both at once; callers give plain paths, so
// each is escaped here (a data dir named `backup[1]` must not turn into a character class).
import { runRestic, type ResticRuntime } from './run.js';
import type { ResticRepo } from './repo.js';

export interface RestoreOptions {
  target: string;
  /** Absolute paths inside the snapshot to restore (all when empty). */
  include?: readonly string[];
  /** Absolute paths inside the snapshot never to write (the vault key, for one). */
  exclude?: readonly string[];
  /** restic patterns (not escaped) never to write: a second guard that does not depend on a path. */
  excludePatterns?: readonly string[];
  signal?: AbortSignal;
}

const SNAPSHOT_ID = /^[0-9a-f]{8,64}$/;

export function assertSnapshotId(id: string): void {
  // Never `latest` (newest snapshot time is not newest data) and never anything option-like.
  if (!SNAPSHOT_ID.test(id)) throw new Error(`"${id}" is not a restic snapshot id; give the id from the generation list.`);
}

/** A literal path as a restic filter pattern: `*`, `?`, `[` and `\\` escaped with a backslash. */
export function literalPattern(path: string): string {
  return path.replace(/[*?[\\]/g, (c) => `\\${c}`);
}

export async function restore(rt: ResticRuntime, repo: ResticRepo, snapshotId: string, options: RestoreOptions): Promise<void> {
  assertSnapshotId(snapshotId);
  if ((options.include?.length ?? 0) > 0 && (options.exclude?.length ?? 0) > 0) {
    throw new Error('restic restore takes either paths to include or paths to exclude, not both.');
  }
  const args = ['restore', snapshotId, `--target=${options.target}`];
  for (const p of options.include ?? []) args.push(`--include=${literalPattern(p)}`);
  for (const p of options.exclude ?? []) args.push(`--exclude=${literalPattern(p)}`);
  for (const p of options.excludePatterns ?? []) args.push(`--exclude=${p}`);
  await runRestic(rt, repo, { args, json: false, signal: options.signal });
}
