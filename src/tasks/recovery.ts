// Restart recovery, LMSP 1.0 §11.3, applied before the service accepts any request. Each leftover
// task moves by its `on_restart` policy; the new state and its event are one transaction.
import type { Db } from '../store/open.js';
import type { TaskLedger, TransitionChange } from './ledger.js';
import { tasksInStatus } from './queries.js';
import type { OnRestart, TaskStatus } from './types.js';
import { UNFINISHED } from './types.js';

const RESTARTED = { code: 'server_restarted', message: 'The service restarted while this task was unfinished.' };

/** The seed's table, as data: found state × policy → change. */
export function recoveryChange(found: TaskStatus, policy: OnRestart): TransitionChange | null {
  const from = [found];
  if (found === 'cancelling') {
    return { from, to: 'cancelled', events: [{ type: 'response.cancelled', withResponse: true }] };
  }
  if (found !== 'queued' && found !== 'loading' && found !== 'running') return null;
  if (policy === 'fail') {
    return { from, to: 'failed', error: RESTARTED, events: [{ type: 'response.failed', withResponse: true }] };
  }
  if (policy === 'resume' && found === 'running') {
    return { from, to: 'running', events: [{ type: 'response.in_progress', fields: { resumed: true } }] };
  }
  // retry (any of the three), resume from queued/loading: back in the queue. A retry of a running
  // task restarts completion; the event tells clients to drop the partial text.
  return {
    from,
    to: 'queued',
    resetOutput: found === 'running',
    events: [{ type: 'response.queued', fields: { reason: 'server_restarted' }, withResponse: true }],
  };
}

export interface RecoveryReport {
  examined: number;
  moved: Array<{ task_id: string; from: TaskStatus; to: TaskStatus }>;
}

/** Leftovers moved under one commit: one fsync per batch, not per task (30,000 queued tasks took
 *  11.5 s to recover one commit each; bench/load.ts left that many behind). */
const BATCH = 1000;

export function recoverTasks(db: Db, ledger: TaskLedger): RecoveryReport {
  const leftovers = tasksInStatus(db, UNFINISHED);
  const report: RecoveryReport = { examined: leftovers.length, moved: [] };
  // Each transition is still its own compare-and-set with its events (a savepoint inside the
  // batch). Nothing listens yet (recovery runs before the service accepts a request), so no event
  // reaches a client before its batch commits.
  const batch = db.transaction((tasks: typeof leftovers) => {
    for (const task of tasks) {
      const change = recoveryChange(task.status, task.on_restart);
      if (!change) continue;
      const result = ledger.transition(task.id, change);
      if (result.ok) report.moved.push({ task_id: task.id, from: task.status, to: change.to });
    }
  });
  for (let i = 0; i < leftovers.length; i += BATCH) batch(leftovers.slice(i, i + BATCH));
  return report;
}
