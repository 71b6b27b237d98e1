// What the Overview reads from the admin API: the wire contract's schemas (src/contract/), and the
// queries over them. Keys end in 'overview' so another screen's cache entry for the same route is
// never shared; the first element is what live events invalidate (api/live-events.ts).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/http';
import { Alert, AlertList, type AlertAckRequest } from '../../../../src/contract/alerts';
import { BackupStatus } from '../../../../src/contract/backups';
import { DrillStatus } from '../../../../src/contract/drills';
import { AdminStatus } from '../../../../src/contract/status';

export type { Alert } from '../../../../src/contract/alerts';
export type { RepositoryStatus } from '../../../../src/contract/backups';
export type { DrillSummary, Verdict as DrillVerdict } from '../../../../src/contract/drills';
export type { AdminStatus, BackupStatus, DrillStatus };

// Task counts change with every task and no admin event carries task changes, so while the
// Overview is open its service state is read again every 10 s; everything else is live.
const TASK_COUNTS_REFRESH_MS = 10_000;

export const useAdminStatus = () =>
  useQuery({ queryKey: ['status', 'overview'], queryFn: () => api('GET', '/admin/status', AdminStatus), refetchInterval: TASK_COUNTS_REFRESH_MS });

export const useBackupStatus = () =>
  useQuery({ queryKey: ['backups', 'status', 'overview'], queryFn: () => api('GET', '/admin/backups/status', BackupStatus) });

export const useDrillStatus = () => useQuery({ queryKey: ['drills', 'status', 'overview'], queryFn: () => api('GET', '/admin/drills/status', DrillStatus) });

export const useAlerts = () => useQuery({ queryKey: ['alerts', 'overview'], queryFn: () => api('GET', '/admin/alerts', AlertList) });

/** Accept a warning, snooze an alert, or undo: the alert list and the verdict follow. */
export function useAcknowledgeAlert() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { key: string; request: AlertAckRequest }) =>
      api('POST', `/admin/alerts/${encodeURIComponent(input.key)}/acknowledge`, Alert, input.request),
    onSuccess: () => Promise.all([client.invalidateQueries({ queryKey: ['alerts'] }), client.invalidateQueries({ queryKey: ['backups'] })]),
  });
}
