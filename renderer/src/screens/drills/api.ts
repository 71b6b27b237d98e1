// What the Drills screen reads (the wire contract's schemas, src/contract/drills.ts): the history (each drill with its checklist), the status (the
// running drill, the last verdict of each kind, the next planned times). Keys start with 'drills'
// so `drill.finished` refreshes them (api/live-events.ts).
import { useQuery } from '@tanstack/react-query';
import { api, listOf } from '../../api/http';
import { DrillRun, DrillStatus } from '../../../../src/contract/drills';

export { CheckStatus, DrillCheck, DrillProgress, DrillRun, DrillStarted, DrillStatus, Verdict } from '../../../../src/contract/drills';

export const useDrillHistory = () =>
  useQuery({ queryKey: ['drills', 'history'], queryFn: () => api('GET', '/admin/drills?limit=30', listOf(DrillRun)).then((l) => l.data) });
export const useDrillStatus = () => useQuery({ queryKey: ['drills', 'status'], queryFn: () => api('GET', '/admin/drills/status', DrillStatus) });
