// What the soak measured as it ran (the service's RSS and open files, the store's size, the data
// disk's use, every 2 s) and whether each has settled: the last third of the run is compared with
// the middle third, so the start-up climb is left out and growth that goes on is seen.
import { readdirSync, readFileSync, statSync } from 'node:fs';

export interface Sample {
  at: number;
  rss: number;
  fds: number;
  store: number;
}

export function sampleOf(pid: number | undefined, store: string, at: number): Sample {
  let rss = 0;
  let fds = 0;
  if (pid !== undefined) {
    try {
      rss = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;
      fds = readdirSync(`/proc/${pid}/fd`).length;
    } catch {
      // between a kill and the restart
    }
  }
  let size = 0;
  try {
    size = statSync(store).size;
  } catch {
    // not there for a moment
  }
  return { at, rss, fds, store: size };
}

const median = (xs: number[]): number => {
  const s = xs.filter((x) => x > 0).sort((a, b) => a - b);
  return s.length === 0 ? 0 : (s[Math.floor(s.length / 2)] ?? 0);
};
const peak = (xs: number[]): number => Math.max(0, ...xs);
const mib = (n: number): string => `${(n / 1048576).toFixed(1)} MiB`;

export interface Settled {
  rows: Array<[string, string]>;
  settled: boolean;
}

/** RSS by its median (a restart resets it, a peak would only see the noisiest moment); open files
 *  and the store by their peak. Growth beyond a small margin over the middle third is "grew". */
export function settledOver(samples: Sample[], totalMs: number): Settled {
  const middle = samples.filter((s) => s.at >= totalMs / 3 && s.at < (totalMs * 2) / 3);
  const last = samples.filter((s) => s.at >= (totalMs * 2) / 3);
  const judge = (before: number, after: number, margin: number): string =>
    after <= before + margin ? 'settled' : `GREW ${before === 0 ? '' : `${(((after - before) / before) * 100).toFixed(0)} %`}`.trim();
  const rss = [median(middle.map((s) => s.rss)), median(last.map((s) => s.rss))] as const;
  const fds = [peak(middle.map((s) => s.fds)), peak(last.map((s) => s.fds))] as const;
  const store = [peak(middle.map((s) => s.store)), peak(last.map((s) => s.store))] as const;
  const verdicts = [judge(rss[0], rss[1], rss[0] * 0.1 + 16 * 1048576), judge(fds[0], fds[1], 8), judge(store[0], store[1], store[0] * 0.1 + 1048576)];
  return {
    rows: [
      ['peak RSS (whole run)', mib(peak(samples.map((s) => s.rss)))],
      ['median RSS, middle / last third', `${mib(rss[0])} / ${mib(rss[1])}: ${verdicts[0] ?? ''}`],
      ['peak open files, middle / last third', `${fds[0]} / ${fds[1]}: ${verdicts[1] ?? ''}`],
      ['store size, middle / last third', `${mib(store[0])} / ${mib(store[1])}: ${verdicts[2] ?? ''}`],
    ],
    settled: verdicts.every((v) => v === 'settled'),
  };
}

export function printTable(rows: Array<[string, string]>): void {
  const width = Math.max(...rows.map(([k]) => k.length));
  console.log(rows.map(([k, v]) => `${k.padEnd(width)}  ${v}`).join('\n'));
}
