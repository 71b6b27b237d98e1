// `PRAGMA integrity_check` of a SQLite file in a worker thread (integrity-worker.ts), with a time
// limit by size: the check reads every page, and on the main thread it would hold the event loop.
import { stat } from 'node:fs/promises';
import { callWorker } from '../process/worker-call.js';
import { admissionTimeLimitMs } from './untrusted-store.js';

/** The worker's script: restore/restore-steps.ts starts one ahead (worker-call.ts, prestartWorkers). */
export const INTEGRITY_WORKER = new URL('./integrity-worker.js', import.meta.url);

export type IntegrityVerdict = { whole: true; tables: number } | { whole: false; found: string };

interface Answer {
  ok: boolean;
  damage?: string | null;
  tables?: number;
  error?: string;
}

function isAnswer(msg: unknown): msg is Answer {
  return typeof msg === 'object' && msg !== null && 'ok' in msg && typeof msg.ok === 'boolean';
}

/** Whether the file at `path` passes integrity_check (and its table count), or what the check found. */
export async function integrityCheck(path: string): Promise<IntegrityVerdict> {
  const bytes = (await stat(path)).size;
  const answer = await callWorker(INTEGRITY_WORKER, { path }, { timeLimitMs: admissionTimeLimitMs(bytes), isAnswer });
  if (!answer.ok) return { whole: false, found: `the check ${answer.message}` };
  const v = answer.value;
  if (!v.ok) return { whole: false, found: v.error ?? 'the check failed' };
  return typeof v.damage === 'string' ? { whole: false, found: v.damage } : { whole: true, tables: v.tables ?? 0 };
}
