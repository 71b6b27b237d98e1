// What the Restore screen reads and sends: the target check, the restore job, "open the restored
// data", and the generation list with a recovery-kit passphrase (a POST, so the passphrase never
// travels in a URL; its query key holds only the attempt number, never the passphrase).
import type { z } from 'zod/v3';
import { useQuery } from '@tanstack/react-query';
import { api, listOf } from '../../api/http';
import { OpenRestored, RestoreJob, RestoreStarted, TargetAnswer } from '../../../../src/contract/restore';
import { AdminStatus } from '../../../../src/contract/status';
import { Generations, useGenerations } from '../backups/api';
import type { FlowState, RestoreOutcome } from './flow';
import type { RestoreGenerationsRequest, RestoreTargetCheckRequest, StartRestoreRequest } from '../../../../src/contract/admin-requests';

export const checkTarget = (target: string) =>
  api('POST', '/admin/restore/check-target', TargetAnswer, { target } satisfies z.input<typeof RestoreTargetCheckRequest>);

export { RestoreJob } from '../../../../src/contract/restore';

/** A finished job as the flow's outcome (a job that crashed before its checklist has none). */
export function outcomeOf(job: RestoreJob): RestoreOutcome | null {
  if (job.status === 'running' || job.status === 'queued') return null;
  if (job.result) {
    const r = job.result;
    return { ok: r.ok, generation: r.generation, snapshotTime: r.snapshot_time, repo: r.repo, target: r.target, checks: r.checks, error: r.error };
  }
  // Interrupted (Sanad stopped meanwhile) or failed before its checklist: the stored sentence says what to do.
  return { ok: false, generation: null, snapshotTime: null, repo: null, target: job.target, checks: [], error: job.error };
}

/** Follows a job; `restore.finished` invalidates 'restore', which refetches it at the end. */
export const useRestoreJob = (id: number | null) =>
  useQuery({ queryKey: ['restore', 'job', id], queryFn: () => api('GET', `/admin/restore/${id ?? 0}`, RestoreJob), enabled: id !== null });

export const startRestore = (body: z.input<typeof StartRestoreRequest>) => api('POST', '/admin/restore', RestoreStarted, body);

export const openRestored = (id: number) => api('POST', `/admin/restore/${id}/open`, OpenRestored);

export const useServiceStatus = () => useQuery({ queryKey: ['status'], queryFn: () => api('GET', '/admin/status', AdminStatus) });

/** The generations for the flow: this machine's passphrase first (shared with the Backups screen), the kit's once given. */
export function useFlowGenerations(s: FlowState) {
  const own = useGenerations(s.repo, s.step === 'generation' && s.passphrase === null);
  const kit = useQuery({
    queryKey: ['restore', 'generations', s.repo, 'kit', s.passphraseAttempt],
    queryFn: () =>
      api('POST', '/admin/restore/generations', Generations, { repo: s.repo ?? undefined, passphrase: s.passphrase ?? undefined } satisfies z.input<
        typeof RestoreGenerationsRequest
      >).then((l) => l.data),
    enabled: s.step === 'generation' && s.passphrase !== null && s.repo !== null,
    staleTime: Infinity,
    gcTime: 0,
  });
  return s.passphrase === null ? own : kit;
}

/** The newest restores (their folders, for the run table). */
export const useRestores = () =>
  useQuery({ queryKey: ['restore', 'list'], queryFn: () => api('GET', '/admin/restore', listOf(RestoreJob)).then((l) => l.data) });
