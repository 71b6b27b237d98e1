// Work a person does not wait for (scheduled backups, maintenance, drills) runs below the text a
// person is generating: nice 10 for the CPU and, on Linux, the idle I/O class, set at exec time
// through `nice` and `ionice` (util-linux) so every thread restic starts inherits it (Linux nice is
// per thread: renicing the pid afterwards would miss the Go runtime's threads). Go's own GOMAXPROCS
// keeps one core free for the engine. Where the wrappers are missing (Windows), the process gets
// the OS's "below normal" priority right after it starts instead.
import { existsSync } from 'node:fs';
import { availableParallelism, constants, setPriority } from 'node:os';

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

/** Go's scheduler threads for a low-priority child: all cores but one (at least one). */
export function lowPriorityGoMaxProcs(): string {
  return String(Math.max(1, availableParallelism() - 1));
}
