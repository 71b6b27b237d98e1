// What the damaged-store check costs at every `sanad serve` start: SQLite's quick_check reads
// every page of the store, read-only (src/store/store-check.ts). Baseline in the same run: reading
// the same file's bytes once (the least any whole-file check can cost), page cache warm for both.
import { readFileSync } from 'node:fs';
import { inspectStore } from '../src/store/store-check.js';
import { backupDataSet } from './backup-data.js';
import { median } from './stats.js';
import { storePath } from '../src/files/data-dir-layout.js';

export interface StoreCheckBench {
  tasks: number;
  storeBytes: number;
  rawReadMs: number;
  quickCheckMs: number;
}

function timed(fn: () => unknown, runs: number): number {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    fn();
    times.push(performance.now() - t0);
  }
  return median(times);
}

export async function storeCheckBench(tasks: number, runs: number): Promise<StoreCheckBench> {
  const data = await backupDataSet(tasks, 1);
  data.db.close();
  const path = storePath(data.dataDir);
  const rawReadMs = timed(() => readFileSync(path), runs);
  const quickCheckMs = timed(() => {
    if (inspectStore(path).state !== 'ok') throw new Error('the bench store should be whole');
  }, runs);
  return { tasks, storeBytes: data.storeBytes, rawReadMs, quickCheckMs };
}
