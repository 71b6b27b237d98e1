// Cancelling a task (LMSP §11.2: atomic). One compare-and-set decides: a queued task is cancelled
// at once; a loading or running one becomes `cancelling` and its worker is stopped; a terminal
// one cannot be cancelled. Once the CAS succeeded the task can only end `cancelled`.
import type { Db } from '../store/open.js';
import type { TaskLedger } from './ledger.js';
import { getTask } from './queries.js';
import type { TaskRunner } from './runner.js';
import type { TaskRow } from './types.js';

export type CancelOutcome =
  { outcome: 'cancelled'; task: TaskRow } | { outcome: 'cancelling'; task: TaskRow } | { outcome: 'not_cancellable'; task: TaskRow } | { outcome: 'not_found' };

export function cancelTask(db: Db, ledger: TaskLedger, runner: TaskRunner, taskId: string): CancelOutcome {
  const queued = ledger.transition(taskId, {
    from: ['queued'],
    to: 'cancelled',
    events: [{ type: 'response.cancelled', withResponse: true }],
  });
  if (queued.ok) {
    runner.cancelAccepted(taskId);
    return { outcome: 'cancelled', task: queued.task };
  }
  const active = ledger.transition(taskId, {
    from: ['loading', 'running'],
    to: 'cancelling',
    events: [{ type: 'response.cancelling' }],
  });
  if (active.ok) {
    runner.cancelAccepted(taskId);
    return { outcome: 'cancelling', task: active.task };
  }
  const task = getTask(db, taskId);
  if (!task) return { outcome: 'not_found' };
  // A second cancel while the first is being carried out is accepted again, unchanged.
  if (task.status === 'cancelling') return { outcome: 'cancelling', task };
  return { outcome: 'not_cancellable', task };
}
