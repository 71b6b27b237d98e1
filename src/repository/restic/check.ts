// `restic check [--read-data-subset=n/t]`. 0.14 has no `check --json`, and the exit code plus the
// text is all any version needs here, so the text path is used everywhere. A drill must tell
// damage (FAIL) from a check that could not run (UNVERIFIED): `damaged` says which one this was.
import { runRestic, type ResticRuntime } from './run.js';
import { ResticError } from './errors.js';
import type { ResticRepo } from './repo.js';

export type CheckResult =
  /** `read`: with a subset, how many data packs this run read and how many the repository has. */
  { ok: true; read?: SubsetRead } | { ok: false; damaged: boolean; error: ResticError; read?: SubsetRead };

export interface SubsetRead {
  packs: number;
  totalPacks: number;
}

/** `read group #3 of 5 data packs (out of total 40 packs in 8 groups)` (0.14 and current releases). */
const GROUP = /read group #\d+ of (\d+) data packs \(out of total (\d+) packs in \d+ groups\)/;

/** restic's words when it found real problems, in 0.14 and current releases. */
const DAMAGE = /repository contains errors|^error: |pack [0-9a-f]+: not referenced|Load\(.*\) returned error|ciphertext verification failed/im;

export async function check(rt: ResticRuntime, repo: ResticRepo, options: { readDataSubset?: string; signal?: AbortSignal } = {}): Promise<CheckResult> {
  const args = ['check'];
  if (options.readDataSubset !== undefined) {
    if (!/^(\d+\/\d+|\d+(\.\d+)?%|\d+[kKmMgGtT]?)$/.test(options.readDataSubset)) {
      throw new Error(`"${options.readDataSubset}" is not a restic read-data subset; use n/t, x% or a size.`);
    }
    args.push(`--read-data-subset=${options.readDataSubset}`);
  }
  let read: SubsetRead | undefined;
  const onLine = (line: string): boolean => {
    const m = GROUP.exec(line);
    if (m) read = { packs: Number(m[1]), totalPacks: Number(m[2]) };
    return false;
  };
  try {
    await runRestic(rt, repo, { args, json: false, signal: options.signal, onLine });
    return read ? { ok: true, read } : { ok: true };
  } catch (error) {
    if (!(error instanceof ResticError)) throw error;
    const damaged = error.kind === 'failed' && DAMAGE.test(error.stderrTail.join('\n'));
    return read ? { ok: false, damaged, error, read } : { ok: false, damaged, error };
  }
}
