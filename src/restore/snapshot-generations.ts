// Which generation a restic snapshot holds, read from its paths: every Sanad snapshot names its
// staging folder `<data-dir>/backups/staging/<epoch>`. The epoch is the moment of the data, so
// "newest" always means the highest epoch, never restic's `latest` (the newest snapshot time: an
// old generation sent again later would win there).
import { posix } from 'node:path';
import type { RecordedCopy } from '../repository/backup-runs.js';
import type { Restic, ResticRepo, Snapshot } from '../repository/restic/index.js';
import { MANIFEST_FILE, SNAPSHOT_TAGS } from '../repository/generation/manifest.js';

export interface SnapshotGeneration {
  generation: number;
  snapshot_id: string;
  repo: string;
  /** When restic took the snapshot (ISO). */
  time: string;
  host: string;
  /** The staging folder inside the snapshot (absolute, as backed up). */
  generation_path: string;
  /** Every path the snapshot holds (the staging folder and each model file). */
  paths: string[];
  /** Total size when restic reports it (0.17+), else null. */
  size_bytes: number | null;
}

const STAGING_PATH = /[/\\]backups[/\\]staging[/\\]([1-9][0-9]*)$/;

export function generationOf(snapshot: Pick<Snapshot, 'paths'>): { generation: number; path: string } | null {
  for (const p of snapshot.paths) {
    const m = STAGING_PATH.exec(p);
    if (m?.[1]) return { generation: Number(m[1]), path: p };
  }
  return null;
}

/** The file of a generation inside its snapshot (`restic dump` takes POSIX paths). */
export function generationFile(g: Pick<SnapshotGeneration, 'generation_path'>, name: string): string {
  return posix.join(g.generation_path.replace(/\\/g, '/'), name);
}

export function manifestPath(g: Pick<SnapshotGeneration, 'generation_path'>): string {
  return generationFile(g, MANIFEST_FILE);
}

function sizeOf(snapshot: Snapshot): number | null {
  return snapshot.summary?.total_bytes_processed ?? null;
}

/** Every generation in the repository, newest data first; ties (one generation sent twice) keep the newer snapshot first. */
export async function listSnapshotGenerations(restic: Restic, repo: ResticRepo, options: { signal?: AbortSignal } = {}): Promise<SnapshotGeneration[]> {
  const snaps = await restic.snapshots(repo, { tags: SNAPSHOT_TAGS, ...(options.signal ? { signal: options.signal } : {}) });
  const found: SnapshotGeneration[] = [];
  for (const s of snaps) {
    const g = generationOf(s);
    if (!g) continue;
    found.push({
      generation: g.generation,
      snapshot_id: s.id,
      repo: repo.name,
      time: s.time,
      host: s.hostname,
      generation_path: g.path,
      paths: s.paths,
      size_bytes: sizeOf(s),
    });
  }
  return found.sort((a, b) => b.generation - a.generation || b.time.localeCompare(a.time));
}

/** A generation as this data dir recorded sending it; null when its paths name no generation folder. */
export function recordedGeneration(copy: RecordedCopy, repo: string): SnapshotGeneration | null {
  const g = generationOf({ paths: copy.paths });
  if (!g || g.generation !== copy.generation) return null;
  return {
    generation: g.generation,
    snapshot_id: copy.snapshot_id,
    repo,
    time: copy.time,
    host: copy.host,
    generation_path: g.path,
    paths: copy.paths,
    size_bytes: null,
  };
}
