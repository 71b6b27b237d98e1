// What the Backups screen (and the Restore screen's generation list) reads from the admin API: the
// wire contract's schemas (src/contract/backups.ts), and the queries over them. Keys start with 'backups' so
// `backup.finished` refreshes all of them (api/live-events.ts).
import { useQuery } from '@tanstack/react-query';
import { api } from '../../api/http';
import { BackupRuns, BackupStatus, Generations, Maintenance } from '../../../../src/contract/backups';

export {
  BackupRuns,
  BackupStatus,
  Generation,
  Generations,
  Maintenance,
  RepositoryStatus,
  type BackupCopy,
  type BackupRun,
  type MaintenanceEntry,
} from '../../../../src/contract/backups';

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
