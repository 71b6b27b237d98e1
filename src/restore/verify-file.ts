// An item of the manifest against a file: size first (cheap, and a wrong size needs no hashing),
// then sha256. Throws CheckFailed with what differs; returns the detail for the checklist.
import { createHash } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { sha256File, type Hasher } from '../files/hash-file.js';
import type { Spoken } from '../contract/said.js';
import { say } from '../contract/said/index.js';
import { CheckFailed } from './checks.js';

export async function verifyFile(path: string, expected: { size: number; sha256: string }, hasher: Hasher = sha256File): Promise<Spoken> {
  const info = await stat(path).catch(() => null);
  if (!info?.isFile()) throw new CheckFailed(say('restore.file_missing', { path }));
  if (info.size !== expected.size) throw new CheckFailed(say('restore.size_wrong', { path, size: info.size, expected: expected.size }));
  const { sha256 } = await hasher(path);
  if (sha256 !== expected.sha256)
    throw new CheckFailed(say('restore.sha_wrong', { path, sha256: sha256.slice(0, 12), expected: expected.sha256.slice(0, 12) }));
  return say('restore.file_ok', { size_bytes: info.size, sha256: sha256.slice(0, 12) });
}

/** The same check for bytes held in memory (the vault key never goes to disk). */
export function verifyBytes(what: string, bytes: Buffer, expected: { size: number; sha256: string }): Spoken {
  if (bytes.length !== expected.size) throw new CheckFailed(say('restore.size_wrong', { path: what, size: bytes.length, expected: expected.size }));
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  if (sha256 !== expected.sha256)
    throw new CheckFailed(say('restore.sha_wrong', { path: what, sha256: sha256.slice(0, 12), expected: expected.sha256.slice(0, 12) }));
  return say('restore.bytes_ok', { size_bytes: bytes.length, sha256: sha256.slice(0, 12) });
}

export type Settled<T> = { value: T } | { error: unknown };

/** Runs `tasks` with at most `limit` at once; the outcomes come back in the tasks' order. */
export async function settleInOrder<T>(tasks: Array<() => Promise<T>>, limit: number): Promise<Array<Settled<T>>> {
  const out: Array<Settled<T>> = new Array<Settled<T>>(tasks.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let i = next++; i < tasks.length; i = next++) {
      const task = tasks[i];
      if (task)
        out[i] = await task().then(
          (value) => ({ value }),
          (error: unknown) => ({ error }),
        );
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker));
  return out;
}
