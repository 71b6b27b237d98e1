// What the Drills screen reads: the history (each drill with its checklist), the status (the
// running drill, the last verdict of each kind, the next planned times). Keys start with 'drills'
// so `drill.finished` refreshes them (api/live-events.ts).
import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { api, listOf } from '../../api/http';

export const CheckStatus = z.enum(['pass', 'fail', 'unverified']);
export type CheckStatus = z.infer<typeof CheckStatus>;
export const Verdict = z.enum(['PASS', 'FAIL', 'UNVERIFIED']);
export type Verdict = z.infer<typeof Verdict>;

export const DrillCheck = z.object({ name: z.string(), status: CheckStatus, detail: z.string() });
export type DrillCheck = z.infer<typeof DrillCheck>;

export const DrillRun = z.object({
  id: z.number(),
  kind: z.enum(['daily', 'deep']),
  trigger: z.string(),
  repo: z.string().nullable(),
  status: z.enum(['running', 'finished', 'interrupted']),
  verdict: Verdict.nullable(),
  checks: z.array(DrillCheck),
  started_at: z.number(),
  finished_at: z.number().nullable(),
});
export type DrillRun = z.infer<typeof DrillRun>;

export const DrillProgress = z.object({ repo: z.string().nullable().optional(), check: z.string(), index: z.number(), total: z.number() });

const Summary = z.object({ id: z.number(), kind: z.string(), verdict: Verdict.nullable(), started_at: z.number(), finished_at: z.number().nullable() }).nullable();
export const DrillStatus = z.object({
  running: z
    .object({ id: z.number().nullable(), kind: z.enum(['daily', 'deep']), trigger: z.string(), started_at: z.number(), progress: DrillProgress.nullable() })
    .nullable(),
  paused: z.boolean(),
  last: z.object({ daily: Summary, deep: Summary }),
  next_drill_at: z.number().nullable(),
  next_deep_at: z.number().nullable(),
});
export type DrillStatus = z.infer<typeof DrillStatus>;

export const useDrillHistory = () => useQuery({ queryKey: ['drills', 'history'], queryFn: () => api('GET', '/admin/drills?limit=30', listOf(DrillRun)).then((l) => l.data) });
export const useDrillStatus = () => useQuery({ queryKey: ['drills', 'status'], queryFn: () => api('GET', '/admin/drills/status', DrillStatus) });
