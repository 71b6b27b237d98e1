// Work a person does not wait for (scheduled backups, maintenance, drills) runs below the text a
// person is generating: nice 10 for the CPU and, on Linux, the idle I/O class, set at exec time
// through `nice` and `ionice` (util-linux) so every thread restic starts inherits it (Linux nice is
// per thread: renicing the pid afterwards would miss the Go runtime's threads). Its thread count is
// left alone: limiting GOMAXPROCS to keep a core free made every backup slower when nothing else ran
// (first backup 1.26x raw instead of ~1.0 on 2 cores, bench/backup.ts), and nice already gives the
// engine the CPU when both want it (bench/contention.ts). Where the wrappers are missing (Windows),
// the process gets the OS's "below normal" priority right after it starts instead.
import { existsSync } from 'node:fs';
import { constants, setPriority } from 'node:os';

const NICE = 10;

function findProgram(name: string): string | null {
  if (process.platform === 'win32') return null;
  for (const dir of ['/usr/bin', '/bin', '/usr/local/bin']) {
    const p = `${dir}/${name}`;
    if (existsSync(p)) return p;
  }
  return null;
}

const wrappers = { nice: findProgram('nice'), ionice: process.platform === 'linux' ? findProgram('ionice') : null };

export interface Launch {
  command: string;
  args: string[];
  /** Set when the wrappers were not available: lower the started process's priority by pid. */
  reniceAfterStart: boolean;
}

/** How to start `command args` at low priority. */
export function lowPriorityLaunch(command: string, args: readonly string[]): Launch {
  if (!wrappers.nice) return { command, args: [...args], reniceAfterStart: true };
  const niced = ['-n', String(NICE), command, ...args];
  if (wrappers.ionice) return { command: wrappers.ionice, args: ['-c', '3', wrappers.nice, ...niced], reniceAfterStart: false };
  return { command: wrappers.nice, args: niced, reniceAfterStart: false };
}

export function reniceLow(pid: number): void {
  try {
    setPriority(pid, process.platform === 'win32' ? constants.priority.PRIORITY_BELOW_NORMAL : NICE);
  } catch {
    // Not allowed or already gone: the work still runs, at normal priority.
  }
}
