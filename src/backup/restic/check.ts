// `restic check [--read-data-subset=n/t]`. 0.14 has no `check --json`, and the exit code plus the
// text is all any version needs here, so the text path is used everywhere. A drill must tell
// damage (FAIL) from a check that could not run (UNVERIFIED): `damaged` says which one this was.
import { runRestic, type ResticRuntime } from './run.js';
import { ResticError } from './errors.js';
import type { ResticRepo } from './repo.js';

export type CheckResult =
  | { ok: true }
  | { ok: false; damaged: boolean; error: ResticError };

/** restic's words when it found real problems, in 0.14 and current releases. */
const DAMAGE = /repository contains errors|^error: |pack [0-9a-f]+: not referenced|Load\(.*\) returned error|ciphertext verification failed/im;

export async function check(
  rt: ResticRuntime,
  repo: ResticRepo,
  options: { readDataSubset?: string; signal?: AbortSignal } = {},
): Promise<CheckResult> {
  const args = ['check'];
  if (options.readDataSubset !== undefined) {
    if (!/^(\d+\/\d+|\d+(\.\d+)?%|\d+[kKmMgGtT]?)$/.test(options.readDataSubset)) {
      throw new Error(`"${options.readDataSubset}" is not a restic read-data subset; use n/t, x% or a size.`);
    }
    args.push(`--read-data-subset=${options.readDataSubset}`);
  }
  try {
    await runRestic(rt, repo, { args, json: false, signal: options.signal });
    return { ok: true };
  } catch (error) {
    if (!(error instanceof ResticError)) throw error;
    const damaged = error.kind === 'failed' && DAMAGE.test(error.stderrTail.join('\n'));
    return { ok: false, damaged, error };
  }
}
