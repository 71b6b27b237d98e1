// The Overview's queries. Keys end in 'overview' so another screen that reads the same route with
// a different schema never shares this cache entry; the first element is what live events
// invalidate (api/live-events.ts).
import { useQuery } from '@tanstack/react-query';
import { api } from '../../api/http';
import { AdminStatus, AlertList, BackupStatus, DrillStatus } from './schemas';

// Task counts change with every task and no admin event carries task changes, so while the
// Overview is open its service state is read again every 10 s; everything else is live.
const TASK_COUNTS_REFRESH_MS = 10_000;

export const useAdminStatus = () =>
  useQuery({ queryKey: ['status', 'overview'], queryFn: () => api('GET', '/admin/status', AdminStatus), refetchInterval: TASK_COUNTS_REFRESH_MS });

export const useBackupStatus = () => useQuery({ queryKey: ['backups', 'status', 'overview'], queryFn: () => api('GET', '/admin/backups/status', BackupStatus) });

export const useDrillStatus = () => useQuery({ queryKey: ['drills', 'status', 'overview'], queryFn: () => api('GET', '/admin/drills/status', DrillStatus) });

export const useAlerts = () => useQuery({ queryKey: ['alerts', 'overview'], queryFn: () => api('GET', '/admin/alerts', AlertList) });
