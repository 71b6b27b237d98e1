// An item of the manifest against a file: size first (cheap, and a wrong size needs no hashing),
// then sha256. Throws CheckFailed with what differs; returns the detail for the checklist.
import { createHash } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { sha256File, type Hasher } from '../engine/hash-file.js';
import { CheckFailed } from './checks.js';

export async function verifyFile(path: string, expected: { size: number; sha256: string }, hasher: Hasher = sha256File): Promise<string> {
  const info = await stat(path).catch(() => null);
  if (!info?.isFile()) throw new CheckFailed(`${path} is missing.`);
  if (info.size !== expected.size) throw new CheckFailed(`${path} is ${info.size} bytes, the manifest says ${expected.size}.`);
  const { sha256 } = await hasher(path);
  if (sha256 !== expected.sha256) throw new CheckFailed(`${path} has sha256 ${sha256.slice(0, 12)}…, the manifest says ${expected.sha256.slice(0, 12)}….`);
  return `${info.size} bytes, sha256 ${sha256.slice(0, 12)}… as in the manifest.`;
}

/** The same check for bytes held in memory (the vault key never goes to disk). */
export function verifyBytes(what: string, bytes: Buffer, expected: { size: number; sha256: string }): string {
  if (bytes.length !== expected.size) throw new CheckFailed(`${what} is ${bytes.length} bytes, the manifest says ${expected.size}.`);
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  if (sha256 !== expected.sha256) throw new CheckFailed(`${what} has sha256 ${sha256.slice(0, 12)}…, the manifest says ${expected.sha256.slice(0, 12)}….`);
  return `${bytes.length} bytes, sha256 ${sha256.slice(0, 12)}… as in the manifest (read into memory, never written to disk).`;
}

export type Settled<T> = { value: T } | { error: unknown };

/** Runs `tasks` with at most `limit` at once; the outcomes come back in the tasks' order. */
export async function settleInOrder<T>(tasks: Array<() => Promise<T>>, limit: number): Promise<Array<Settled<T>>> {
  const out: Array<Settled<T>> = new Array<Settled<T>>(tasks.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let i = next++; i < tasks.length; i = next++) {
      const task = tasks[i];
      if (task) out[i] = await task().then((value) => ({ value }), (error: unknown) => ({ error }));
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker));
  return out;
}
