// Live state: one event stream on GET /admin/events (event-stream.ts). Each event invalidates the
// queries it makes stale, and progress events are kept in the query cache under their own key, so a
// progress bar is just a query. The stream reconnects by itself; on each (re)connect ("ready")
// every live query is refetched, because events sent while disconnected are not replayed.
import type { QueryClient } from '@tanstack/react-query';
import { AdminEvent, type AdminEventData, type AdminEventType } from '../../../src/contract/admin-events';
import { openEventStream, parseFrame } from './event-stream';
import { OPEN_RUNS_KEY, withRun } from './open-runs';
import type { Run } from '../../../src/contract/runs';

export const LiveEvent = AdminEvent;
export type LiveEvent = AdminEvent;

/** Query keys each event type makes stale (prefix match). Every event type is named, so an event
 *  added to the contract without a decision here breaks the build. */
export const INVALIDATES: Record<AdminEventType, ReadonlyArray<readonly string[]>> = {
  'backup.finished': [['backups'], ['status'], ['alerts'], ['diagnostics']],
  'drill.finished': [['drills'], ['status'], ['alerts'], ['diagnostics']],
  'restore.finished': [['restore']],
  'generation.progress': [],
  // Any recorded run ended: the run tables (components/RunTable.tsx). The open runs are kept
  // from the event itself (open-runs.ts), below.
  'run.finished': [['runs']],
  'run.updated': [],
  'passphrase.rotated': [['recovery-kit'], ['status'], ['diagnostics']],
  'vault.rotated': [],
  'alerts.changed': [['alerts'], ['diagnostics']],
  'clients.changed': [['clients']],
  'lan.changed': [['lan'], ['settings']],
  // Responses brought back from a generation: the live data and the record changed.
  'history.changed': [['history'], ['tasks']],
  // The Models screen follows its pulls by polling while one runs.
  'pull.finished': [],
};

/** Where progress events of work that is not a run are kept (looking inside a generation); a
 *  run's progress is in its row (open-runs.ts). */
export type ProgressKind = 'generation';
export type ProgressOf<K extends ProgressKind> = AdminEventData<`${K}.progress`>;
export const progressKey = (kind: ProgressKind) => ['progress', kind] as const;

export function applyLiveEvent(client: QueryClient, event: LiveEvent): void {
  switch (event.type) {
    case 'generation.progress':
      client.setQueryData(progressKey('generation'), event.data);
      return;
    case 'run.updated':
    case 'run.finished':
      client.setQueryData<Run[]>(OPEN_RUNS_KEY, (runs) => withRun(runs, event.data));
      break;
    default:
      break;
  }
  for (const key of INVALIDATES[event.type]) void client.invalidateQueries({ queryKey: key });
}

/** Opens the stream; returns a function that closes it. */
export function listenToLiveEvents(client: QueryClient, onState?: (connected: boolean) => void): () => void {
  if (typeof fetch === 'undefined' || typeof ReadableStream === 'undefined') return () => undefined;
  const stream = openEventStream('/admin/events', {
    onEvent: (type, data) => {
      if (type === 'ready') {
        onState?.(true);
        void client.invalidateQueries();
        return;
      }
      const event = parseFrame(data, LiveEvent);
      if (event !== null) applyLiveEvent(client, event);
    },
    onError: () => onState?.(false),
  });
  return () => stream.close();
}
