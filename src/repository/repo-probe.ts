// "Test connection": proves the remote accepts writes and deletes, with a real write and delete,
// not a listing (a remote that lists but cannot write looked healthy to Kazma for 29 backups).
// It creates the repository if it is new, backs up a tiny random probe as a tagged snapshot,
// forgets that snapshot, and checks it is gone.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Said } from '../contract/said.js';
import { say } from '../contract/said/index.js';
import { ResticError, type Restic, type ResticRepo } from './restic/index.js';
import { forgetSnapshot } from './restic/forget-snapshot.js';

export const PROBE_TAG = 'sanad-probe';

export interface ProbeResult {
  ok: boolean;
  initialized: boolean;
  detail: string;
  /** A failure as a saying (restic's own, or the delete that did not happen): worded in the reader's language. */
  said?: Said;
}

export async function probeRepository(restic: Restic, target: ResticRepo, options: { signal?: AbortSignal } = {}): Promise<ProbeResult> {
  const signal = options.signal ? { signal: options.signal } : {};
  const dir = await mkdtemp(join(tmpdir(), 'sanad-probe-'));
  try {
    let initialized = false;
    if (!(await restic.isInitialized(target, signal))) {
      await restic.init(target, signal);
      initialized = true;
    }
    await writeFile(join(dir, 'probe'), randomBytes(64));
    const written = await restic.backup(target, [dir], { tags: [PROBE_TAG], host: hostname(), ...signal });
    await forgetSnapshot(restic.runtime, target, written.snapshotId, signal);
    const left = await restic.snapshots(target, { tags: [PROBE_TAG], ...signal });
    if (left.some((s) => s.id.startsWith(written.snapshotId) || s.short_id === written.snapshotId)) {
      const spoken = say('probe.delete_ignored', { repo: target.name });
      return { ok: false, initialized, detail: spoken.detail, said: { code: spoken.code, params: spoken.params } };
    }
    return { ok: true, initialized, detail: `${target.name} accepted a write and a delete${initialized ? ' (repository created)' : ''}` };
  } catch (err) {
    const detail = err instanceof Error ? err.message : String(err);
    return { ok: false, initialized: false, detail, ...(err instanceof ResticError ? { said: err.said } : {}) };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
