// The protection timeline's geometry, apart from drawing: the last `days` days as one strip per
// repository, each generation a mark at its data's time, every stretch longer than the backup
// target without a generation a gap (up to now: a repository that stopped getting backups shows a
// gap that reaches today), and the drills as marks with their verdict. Positions are fractions
// 0..1 of the width from the oldest edge; the component flips them for right-to-left.
import { backupTargetHours } from '../../../../src/contract/backups';

export interface TimelineInput {
  nowS: number;
  days: number;
  /** The backup interval; the target (two intervals) is a gap's least length. */
  intervalHours: number;
  repos: ReadonlyArray<{ name: string; generations: readonly number[] }>;
  drills: ReadonlyArray<{ at: number; verdict: 'PASS' | 'FAIL' | 'UNVERIFIED'; repo: string | null }>;
}

export interface GenerationMark {
  at: number;
  x: number;
}
export interface Gap {
  from: number;
  to: number;
  x1: number;
  x2: number;
}
export interface DrillMark {
  at: number;
  x: number;
  verdict: 'PASS' | 'FAIL' | 'UNVERIFIED';
  repo: string | null;
}
export interface TimelineRow {
  repo: string;
  marks: GenerationMark[];
  gaps: Gap[];
}
export interface TimelineModel {
  start: number;
  end: number;
  rows: TimelineRow[];
  drills: DrillMark[];
}

export function timelineModel(input: TimelineInput): TimelineModel {
  const end = input.nowS;
  const start = end - input.days * 86_400;
  const x = (t: number): number => Math.min(1, Math.max(0, (t - start) / (end - start)));
  const target = backupTargetHours(input.intervalHours) * 3600;
  const rows = input.repos.map((r): TimelineRow => {
    const sorted = [...new Set(r.generations)].sort((a, b) => a - b);
    const marks = sorted.filter((g) => g >= start && g <= end).map((g) => ({ at: g, x: x(g) }));
    const gaps: Gap[] = [];
    // Each stretch between two generations, and the last one up to now; the time before the first
    // generation ever is not a gap (there was nothing to protect yet, or it is before this window).
    const ends = [...sorted, end];
    for (let i = 0; i + 1 < ends.length; i++) {
      const from = ends[i] ?? 0;
      const to = ends[i + 1] ?? 0;
      if (to - from <= target || to < start) continue;
      const a = Math.max(from, start);
      gaps.push({ from, to, x1: x(a), x2: x(to) });
    }
    return { repo: r.name, marks, gaps };
  });
  const drills = input.drills.filter((d) => d.at >= start && d.at <= end).map((d) => ({ ...d, x: x(d.at) }));
  return { start, end, rows, drills };
}
