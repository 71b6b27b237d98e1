// `restic backup --json`: status lines become progress callbacks, error lines are collected per
// item, and the run only counts when restic printed its `summary` (with the snapshot id).
// Exit code 3 means the snapshot exists but some files could not be read: that is returned as
// `partial: true` with the unreadable items, because the snapshot is real and the caller decides.
import { say } from '../../contract/said/index.js';
import { runRestic, type ResticRuntime } from './run.js';
import { ResticError } from './errors.js';
import { backupError, backupOther, backupStatus, backupSummary } from './messages.js';
import { resticTime, tagFlag } from './flags.js';
import type { ResticRepo } from './repo.js';

export interface BackupProgress {
  percent: number;
  files_done: number;
  total_files: number;
  bytes_done: number;
  total_bytes: number;
}

export interface BackupOptions {
  tags: readonly string[];
  host: string;
  /** Snapshot id to compare against (so unchanged large files are not re-read). */
  parent?: string;
  /** Snapshot time; from Sanad's clock so tests can move it. */
  time?: Date;
  excludes?: string[];
  onProgress?: (status: BackupProgress) => void;
  signal?: AbortSignal;
  /** Status lines per second restic prints (RESTIC_PROGRESS_FPS); default 2. */
  progressPerSecond?: number;
}

export interface BackupSummary {
  files_new: number;
  files_changed: number;
  files_unmodified: number;
  data_added: number;
  total_bytes_processed: number;
  total_files_processed: number;
}

export interface BackupResult {
  /** As restic prints it in the summary: 0.14 gives the short id, later releases the full one. */
  snapshotId: string;
  summary: BackupSummary;
  partial: boolean;
  itemErrors: Array<{ item: string; during: string; message: string }>;
}

export async function backup(rt: ResticRuntime, repo: ResticRepo, paths: readonly string[], options: BackupOptions): Promise<BackupResult> {
  if (paths.length === 0) throw new Error('restic backup needs at least one path.');
  const args = ['backup', tagFlag(options.tags), `--host=${options.host}`];
  if (options.parent !== undefined) args.push(`--parent=${options.parent}`);
  if (options.time !== undefined) args.push(`--time=${resticTime(options.time)}`);
  for (const e of options.excludes ?? []) args.push(`--exclude=${e}`);
  // `--` so a path beginning with `-` is a path.
  args.push('--', ...paths);

  // A holder object, not `let`s: TypeScript does not see assignments made inside the callback.
  const seen: { summary?: BackupSummary; snapshotId?: string } = {};
  const itemErrors: BackupResult['itemErrors'] = [];
  const onJson = (value: unknown): boolean => {
    const status = backupStatus.safeParse(value);
    if (status.success) {
      const s = status.data;
      options.onProgress?.({
        percent: s.percent_done,
        files_done: s.files_done,
        total_files: s.total_files,
        bytes_done: s.bytes_done,
        total_bytes: s.total_bytes,
      });
      return true;
    }
    const done = backupSummary.safeParse(value);
    if (done.success) {
      const d = done.data;
      seen.snapshotId = d.snapshot_id;
      seen.summary = {
        files_new: d.files_new,
        files_changed: d.files_changed,
        files_unmodified: d.files_unmodified,
        data_added: d.data_added,
        total_bytes_processed: d.total_bytes_processed,
        total_files_processed: d.total_files_processed,
      };
      return true;
    }
    const failed = backupError.safeParse(value);
    if (failed.success) {
      const e = failed.data;
      itemErrors.push({ item: e.item ?? '', during: e.during ?? '', message: e.error?.message ?? 'unreadable' });
      return true;
    }
    return backupOther.safeParse(value).success;
  };

  const result = await runRestic(rt, repo, {
    args,
    json: true,
    signal: options.signal,
    onJson,
    env: { RESTIC_PROGRESS_FPS: String(options.progressPerSecond ?? 2) },
    acceptCodes: [3],
  });
  if (seen.summary === undefined || seen.snapshotId === undefined) {
    throw new ResticError('failed', say('restic.no_summary', { repo: repo.name }), result.code, result.stderrTail);
  }
  return { snapshotId: seen.snapshotId, summary: seen.summary, partial: result.code === 3, itemErrors };
}
