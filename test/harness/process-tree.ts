// A process's children and descendants, with their command lines, read from /proc (Linux): how
// the crash tests and the soak find the restic that `sanad serve` runs, to freeze or kill it.
import { readdirSync, readFileSync } from 'node:fs';

export interface ChildProcessInfo {
  pid: number;
  args: string[];
}

export function childrenOf(pid: number): ChildProcessInfo[] {
  const out: ChildProcessInfo[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) out.push({ pid: Number(entry), args: readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').filter(Boolean) });
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

export function descendantsOf(pid: number): ChildProcessInfo[] {
  const children = childrenOf(pid);
  return [...children, ...children.flatMap((c) => descendantsOf(c.pid))];
}
