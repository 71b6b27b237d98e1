// Work nobody waits on runs below the engine: a low-priority child runs at nice 10 in every thread
// it starts and, on Linux, in the idle I/O class; a normal child does not. Real processes, read
// back from /proc and util-linux's ionice.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { runChild, runningChildren } from '../../src/process/spawn.js';

const linux = process.platform === 'linux';

/** The nice value of every thread of `pid` (field 19 of /proc/PID/task/TID/stat). */
function threadNices(pid: number): number[] {
  return readdirSync(`/proc/${pid}/task`).map((tid) => {
    const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[16]);
  });
}

async function withChild<T>(lowPriority: boolean, look: (pid: number) => T): Promise<T> {
  const abort = new AbortController();
  // A program that starts threads of its own: node itself (its platform workers).
  const done = runChild({
    command: process.execPath,
    args: ['-e', 'setTimeout(() => {}, 20000)'],
    env: {},
    signal: abort.signal,
    killGraceMs: 100,
    lowPriority,
  });
  let pid: number | undefined;
  for (let i = 0; i < 100 && pid === undefined; i++) {
    await new Promise((r) => setTimeout(r, 20));
    const c = runningChildren().find((x) => x.args.includes('setTimeout(() => {}, 20000)'));
    if (c?.pid !== undefined && threadNices(c.pid).length > 1) pid = c.pid;
  }
  assert.ok(pid !== undefined, 'the child started its threads');
  try {
    return look(pid);
  } finally {
    abort.abort();
    await done.catch(() => undefined);
  }
}

test(
  'a low-priority child runs at nice 10 in all its threads and in the idle I/O class; a normal one does not',
  { skip: !linux && 'reads /proc' },
  async () => {
    const low = await withChild(true, (pid) => ({ nices: threadNices(pid), io: execFileSync('ionice', ['-p', String(pid)], { encoding: 'utf8' }).trim() }));
    assert.ok(low.nices.length > 1);
    assert.deepEqual([...new Set(low.nices)], [10], `every thread at nice 10: ${low.nices.join(',')}`);
    assert.equal(low.io, 'idle');
    const normal = await withChild(false, (pid) => ({ nices: threadNices(pid), io: execFileSync('ionice', ['-p', String(pid)], { encoding: 'utf8' }).trim() }));
    assert.deepEqual([...new Set(normal.nices)], [0]);
    assert.notEqual(normal.io, 'idle');
  },
);
