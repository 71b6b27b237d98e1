// A store that came from a backup is untrusted until this says otherwise. Whoever can write to a
// repository and knows its passphrase (the recovery kit's holder) can back up a `sanad.db` whose
// tables are endless recursive views or carry triggers: queried on the main thread, such a file
// froze the whole appliance. So before any of Sanad's code queries such a file (looking inside a
// generation, a drill, a restore), a worker thread checks, with a time limit, that its schema is
// exactly the DDL of a known Sanad store version, with `trusted_schema` off (and, for a drill, that
// it passes `integrity_check`). A file that fails is not a Sanad store, and the service answered meanwhile.
import { stat } from 'node:fs/promises';
import { callWorker } from '../process/worker-call.js';
import type { AdmissionVerdict } from './untrusted-store-verdict.js';

export type { AdmissionVerdict } from './untrusted-store-verdict.js';

/** The worker's script: restore/restore-steps.ts starts one ahead (worker-call.ts, prestartWorkers). */
export const ADMISSION_WORKER = new URL('./untrusted-store-worker.js', import.meta.url);

/** The time limit: a generous minute plus a second per 20 MiB (integrity_check reads every page). */
export function admissionTimeLimitMs(bytes: number): number {
  return 60_000 + Math.ceil(bytes / (20 * 1024 * 1024)) * 1000;
}

function isVerdict(value: unknown): value is AdmissionVerdict {
  return typeof value === 'object' && value !== null && 'ok' in value && typeof value.ok === 'boolean';
}

/**
 * Looks at the SQLite file at `path` in a worker: `expect: 'sanad'` admits only a Sanad store of a
 * known version, `'any'` any SQLite file; `integrity: true` also runs integrity_check (only where
 * nothing later does: the drill). Never throws for what the file holds; the
 * verdict says what is wrong, in a phrase that reads after "<file> …".
 */
export async function admitUntrustedStore(
  path: string,
  options: { expect?: 'sanad' | 'any'; integrity?: boolean; timeLimitMs?: number; signal?: AbortSignal } = {},
): Promise<AdmissionVerdict> {
  const bytes = (await stat(path).catch(() => null))?.size ?? 0;
  const answer = await callWorker(
    ADMISSION_WORKER,
    { path, expect: options.expect ?? 'sanad', integrity: options.integrity ?? false },
    {
      timeLimitMs: options.timeLimitMs ?? admissionTimeLimitMs(bytes),
      isAnswer: isVerdict,
      ...(options.signal ? { signal: options.signal } : {}),
    },
  );
  if (answer.ok) return answer.value;
  if (answer.why === 'timeout') return { ok: false, kind: 'timeout', problem: `checking it ${answer.message}, which no Sanad store of its size needs` };
  if (answer.why === 'cancelled') return { ok: false, kind: 'timeout', problem: 'the check was cancelled' };
  return { ok: false, kind: 'damaged', problem: `the check ${answer.message}` };
}
