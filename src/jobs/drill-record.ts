// How a drill is kept in `runs` (runs.ts), for whoever runs it (the service's job owner, or
// `sanad drill` with no service): a drill that ran to its end is `ok` whatever its verdict (the
// verdict is the drill's detail: drill-runs.ts), one stopped half-way is `interrupted`, and one that
// never began (another drill held the lock, or no such repository) leaves no record.
import { KEEP_RUNS } from '../drill/drill-runs.js';
import { DrillBusyError, UnknownRepositoryError, type DrillResult } from '../drill/run-drill.js';
import type { RunRecord } from './jobs.js';

export function drillRecord(trigger: string): RunRecord<DrillResult> {
  return {
    kind: 'drill',
    trigger,
    end: (result) => ({ status: result.interrupted ? 'interrupted' : 'ok', error: null }),
    refused: (error) => error instanceof DrillBusyError || error instanceof UnknownRepositoryError,
    keep: KEEP_RUNS,
  };
}
