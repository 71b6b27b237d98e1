// Progress of `restic restore`, which prints none in 0.14. Sizes on disk are useless for it (restic
// preallocates each file at full size before writing), so on Linux the bytes restic has written
// are read from /proc/<pid>/io (`wchar`); elsewhere the restored files' sizes stand in, coarsely.
import { readdir, readFile, lstat } from 'node:fs/promises';
import { join } from 'node:path';
import { runningChildren } from '../process/spawn.js';

export type RestorePhase = 'opening' | 'reading_manifest' | 'restoring' | 'verifying' | 'assembling' | 'checking' | 'storing_secrets' | 'cleaning_up' | 'done';

export interface RestoreProgress {
  phase: RestorePhase;
  /** 0..1 of the bytes to restore (restoring phase only). */
  percent?: number;
  bytes_done?: number;
  bytes_total?: number;
}

async function treeBytes(dir: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
    const p = join(dir, entry.name);
    if (entry.isDirectory()) total += await treeBytes(p);
    else if (entry.isFile()) total += (await lstat(p).catch(() => null))?.size ?? 0;
  }
  return total;
}

async function writtenByRestic(targetDir: string): Promise<number | null> {
  const child = runningChildren().find((c) => c.args.includes(`--target=${targetDir}`));
  if (child?.pid === undefined) return null;
  const io = await readFile(`/proc/${child.pid}/io`, 'utf8').catch(() => null);
  const m = io === null ? null : /^wchar:\s*(\d+)$/m.exec(io);
  return m?.[1] ? Number(m[1]) : null;
}

/** Polls the bytes restored into `targetDir` every `intervalMs`; returns the function that stops it. */
export function watchRestoredBytes(targetDir: string, onBytes: (bytes: number) => void, intervalMs = 250): () => void {
  let busy = false;
  let stopped = false;
  const timer = setInterval(() => {
    if (busy) return;
    busy = true;
    void (async () => (await writtenByRestic(targetDir)) ?? (await treeBytes(targetDir)))()
      // A poll still in flight when the restore ended must not report after it.
      .then(
        (bytes) => stopped || onBytes(bytes),
        () => undefined,
      )
      .finally(() => (busy = false));
  }, intervalMs);
  return () => {
    stopped = true;
    clearInterval(timer);
  };
}

/**
 * Turns measured bytes into `restoring` progress once the total is known (from the manifest,
 * which arrives while restic is already restoring). Repeats are dropped; the end always counts.
 */
export class RestoreMeter {
  private total: number | null = null;
  private latest = 0;
  private last = '';

  constructor(private readonly progress: (p: RestoreProgress) => void) {}

  bytes(bytes: number): void {
    this.latest = bytes;
    if (this.total !== null) this.emit(bytes, false);
  }

  start(total: number): void {
    this.total = total;
    this.emit(0, false);
    this.emit(this.latest, false);
  }

  done(): void {
    if (this.total !== null) this.emit(this.total, true);
  }

  private emit(bytes: number, done: boolean): void {
    const total = this.total ?? 0;
    const percent = done ? 1 : total > 0 ? Math.min(0.99, bytes / total) : 0;
    const shown = done ? total : Math.min(bytes, total);
    if (`${percent}:${shown}` === this.last) return;
    this.last = `${percent}:${shown}`;
    this.progress({ phase: 'restoring', percent, bytes_done: shown, bytes_total: total });
  }
}
