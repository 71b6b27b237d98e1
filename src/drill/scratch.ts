// Where a drill puts what it restores: `<data-dir>/drills/scratch-<random>`, 0700 (a restored store
// holds the vault, sealed, and the tasks in plain text), removed when the check ends, pass or fail.
// A drill that died left its scratch behind: the next one, holding the drill lock, removes it.
import { chmod, mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { drillsDir } from '../files/data-dir-layout.js';

export const SCRATCH_PREFIX = 'scratch-';

export function drillLockPath(dataDir: string): string {
  return join(drillsDir(dataDir), 'drill.lock');
}

/** Runs `fn` with a fresh scratch dir and removes the dir afterwards, whatever happened. */
export async function withScratch<T>(dataDir: string, fn: (dir: string) => Promise<T>): Promise<T> {
  await mkdir(drillsDir(dataDir), { recursive: true, mode: 0o700 });
  const dir = await mkdtemp(join(drillsDir(dataDir), SCRATCH_PREFIX));
  try {
    return await fn(dir);
  } finally {
    await removeTree(dir);
  }
}

/** rm -rf that also copes with restored folders whose mode forbids writing (a model kept in a
 *  read-only folder comes back read-only). */
export async function removeTree(dir: string): Promise<void> {
  try {
    await rm(dir, { recursive: true, force: true });
  } catch {
    await makeWritable(dir);
    await rm(dir, { recursive: true, force: true });
  }
}

async function makeWritable(dir: string): Promise<void> {
  await chmod(dir, 0o700).catch(() => undefined);
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  for (const e of entries) if (e.isDirectory()) await makeWritable(join(dir, e.name));
}

/** Scratch dirs of drills that died; call only while holding the drill lock. */
export async function removeLeftoverScratch(dataDir: string): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(drillsDir(dataDir));
  } catch {
    return [];
  }
  const doomed = names.filter((n) => n.startsWith(SCRATCH_PREFIX)).map((n) => join(drillsDir(dataDir), n));
  for (const dir of doomed) await removeTree(dir);
  return doomed;
}
