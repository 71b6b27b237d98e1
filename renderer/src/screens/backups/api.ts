// What the Backups screen (and the Restore screen's generation list) reads from the admin API, each
// answer checked by a zod schema, and the queries over it. Keys start with 'backups' so
// `backup.finished` refreshes all of them (api/live-events.ts).
import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { api, listOf } from '../../api/http';

export const RepositoryStatus = z.object({
  name: z.string(),
  type: z.string(),
  location: z.string(),
  enabled: z.boolean(),
  last_ok_at: z.number().nullable(),
  last_error: z.string().nullable(),
  failing: z.boolean(),
});
export type RepositoryStatus = z.infer<typeof RepositoryStatus>;

export const BackupStatus = z.object({
  running: z.boolean(),
  progress: z.record(z.unknown()).nullable(),
  paused: z.boolean(),
  interval_hours: z.number(),
  next_run_at: z.number().nullable(),
  last_run: z
    .object({ id: z.number(), generation: z.number().nullable(), status: z.string(), started_at: z.number(), finished_at: z.number().nullable(), error: z.string().nullable() })
    .nullable(),
  last_ok_at: z.number().nullable(),
  repositories: z.array(RepositoryStatus),
});
export type BackupStatus = z.infer<typeof BackupStatus>;

const Run = z.object({
  id: z.number(),
  generation: z.number().nullable(),
  trigger: z.string(),
  status: z.string(),
  error: z.string().nullable(),
  started_at: z.number(),
  finished_at: z.number().nullable(),
});
const Copy = z.object({ run_id: z.number(), repository: z.string(), ok: z.union([z.boolean(), z.number()]), snapshot_id: z.string().nullable(), error: z.string().nullable() });
export const BackupRuns = z.object({ data: z.array(Run), copies: z.array(Copy) });
export type BackupRun = z.infer<typeof Run>;
export type BackupCopy = z.infer<typeof Copy>;

export const Generation = z.object({
  generation: z.number(),
  snapshot_id: z.string(),
  repo: z.string(),
  time: z.string(),
  size_bytes: z.number().nullable(),
  host: z.string(),
});
export type Generation = z.infer<typeof Generation>;
export const Generations = listOf(Generation);

const MaintenanceStep = z.enum(['unlock', 'forget', 'check']);
const MaintenanceEntry = z.object({
  started_at: z.number(),
  finished_at: z.number(),
  ok: z.boolean(),
  steps: z.array(MaintenanceStep),
  failed_step: MaintenanceStep.nullable(),
  removed: z.number().nullable(),
  kept: z.number().nullable(),
  error: z.string().nullable(),
});
export type MaintenanceEntry = z.infer<typeof MaintenanceEntry>;
export const Maintenance = z.object({
  retention: z.object({ hourly: z.number(), daily: z.number(), weekly: z.number(), monthly: z.number() }),
  data: z.array(
    z.object({
      repository: z.string(),
      ok_at: z.number().nullable(),
      failed_at: z.number().nullable(),
      due_after: z.number().nullable(),
      last: MaintenanceEntry.nullable(),
      log: z.array(MaintenanceEntry),
    }),
  ),
});
export type Maintenance = z.infer<typeof Maintenance>;

export const useBackupStatus = () => useQuery({ queryKey: ['backups', 'status'], queryFn: () => api('GET', '/admin/backups/status', BackupStatus) });
export const useBackupRuns = () => useQuery({ queryKey: ['backups', 'runs'], queryFn: () => api('GET', '/admin/backups', BackupRuns) });
export const useMaintenance = () => useQuery({ queryKey: ['backups', 'maintenance'], queryFn: () => api('GET', '/admin/maintenance', Maintenance) });

/** Generations of one repository, newest data first (restic is asked each time: not cheap, so kept a minute). */
export const useGenerations = (repo: string | null, enabled = true) =>
  useQuery({
    queryKey: ['backups', 'generations', repo],
    queryFn: () => api('GET', `/admin/restore/generations?repo=${encodeURIComponent(repo ?? '')}`, Generations).then((l) => l.data),
    enabled: enabled && repo !== null,
    staleTime: 60_000,
  });
