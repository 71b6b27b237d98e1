// What the Restore screen reads and sends: the target check, the restore job, "open the restored
// data", and the generation list with a recovery-kit passphrase (a POST, so the passphrase never
// travels in a URL; its query key holds only the attempt number, never the passphrase).
import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '../../api/http';
import { Generations, useGenerations } from '../backups/api';
import type { FlowState, RestoreOutcome } from './flow';

export const TargetAnswer = z.object({
  ok: z.boolean(),
  path: z.string().nullable(),
  state: z.enum(['absent', 'empty']).nullable(),
  refusal: z.string().nullable(),
  reason: z.string().nullable(),
});

export const checkTarget = (target: string) => api('POST', '/admin/restore/check-target', TargetAnswer, { target });

const Check = z.object({ name: z.string(), ok: z.boolean(), detail: z.string() });
export const RestoreJob = z.object({
  id: z.string(),
  status: z.enum(['running', 'succeeded', 'failed']),
  target: z.string(),
  repo: z.string(),
  progress: z.record(z.unknown()).nullable(),
  result: z
    .object({ ok: z.boolean(), generation: z.number().nullable(), target: z.string(), checks: z.array(Check), error: z.string().nullable() })
    .passthrough()
    .nullable(),
});
export type RestoreJob = z.infer<typeof RestoreJob>;

/** A finished job as the flow's outcome (a job that crashed before its checklist has none). */
export function outcomeOf(job: RestoreJob): RestoreOutcome | null {
  if (job.status === 'running') return null;
  if (job.result) return { ok: job.result.ok, generation: job.result.generation, target: job.result.target, checks: job.result.checks, error: job.result.error };
  return { ok: false, generation: null, target: job.target, checks: [], error: null };
}

/** Follows a job; `restore.finished` invalidates 'restore', which refetches it at the end. */
export const useRestoreJob = (id: string | null) =>
  useQuery({ queryKey: ['restore', 'job', id], queryFn: () => api('GET', `/admin/restore/${encodeURIComponent(id ?? '')}`, RestoreJob), enabled: id !== null });

export const startRestore = (body: { target: string; generation: number; repo: string; passphrase?: string }) =>
  api('POST', '/admin/restore', z.object({ id: z.string() }).passthrough(), body);

export const openRestored = (id: string) =>
  api('POST', `/admin/restore/${encodeURIComponent(id)}/open`, z.object({ login_url: z.string(), data_dir: z.string() }).passthrough());

export const useServiceStatus = () =>
  useQuery({ queryKey: ['status'], queryFn: () => api('GET', '/admin/status', z.object({ service: z.object({ data_dir: z.string().optional() }).passthrough() }).passthrough()) });

/** The generations for the flow: this machine's passphrase first (shared with the Backups screen), the kit's once given. */
export function useFlowGenerations(s: FlowState) {
  const own = useGenerations(s.repo, s.step === 'generation' && s.passphrase === null);
  const kit = useQuery({
    queryKey: ['restore', 'generations', s.repo, 'kit', s.passphraseAttempt],
    queryFn: () => api('POST', '/admin/restore/generations', Generations, { repo: s.repo, passphrase: s.passphrase }).then((l) => l.data),
    enabled: s.step === 'generation' && s.passphrase !== null && s.repo !== null,
    staleTime: Infinity,
    gcTime: 0,
  });
  return s.passphrase === null ? own : kit;
}
