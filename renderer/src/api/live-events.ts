// Live state: one event stream on GET /admin/events (event-stream.ts). Each event invalidates the
// queries it makes stale, and progress events are kept in the query cache under their own key, so a
// progress bar is just a query. The stream reconnects by itself; on each (re)connect ("ready")
// every live query is refetched, because events sent while disconnected are not replayed.
import type { QueryClient } from '@tanstack/react-query';
import { z } from 'zod/v3';
import { openEventStream, parseFrame } from './event-stream';

export const LiveEvent = z.object({
  id: z.number(),
  type: z.string(),
  at: z.number(),
  data: z.record(z.unknown()),
});
export type LiveEvent = z.infer<typeof LiveEvent>;

/** Query keys each event type makes stale (prefix match). */
export const INVALIDATES: Record<string, ReadonlyArray<readonly string[]>> = {
  'backup.finished': [['backups'], ['status'], ['alerts'], ['diagnostics']],
  'drill.finished': [['drills'], ['status'], ['alerts'], ['diagnostics']],
  'restore.finished': [['restore']],
  // Any recorded run (backup, drill, restore) ended: the run tables (components/RunTable.tsx).
  'run.finished': [['runs']],
  'passphrase.rotated': [['recovery-kit'], ['status'], ['diagnostics']],
  'alerts.changed': [['alerts'], ['diagnostics']],
  'clients.changed': [['clients']],
  'lan.changed': [['lan'], ['settings']],
  // Responses brought back from a generation: the live data and the record changed.
  'history.changed': [['history'], ['tasks']],
};

/** Where progress events are kept: the latest one per operation kind. */
export type ProgressKind = 'backup' | 'drill' | 'restore' | 'generation';
export const progressKey = (kind: ProgressKind) => ['progress', kind] as const;

const PROGRESS_KINDS: readonly string[] = ['backup', 'drill', 'restore', 'generation'];
const isProgressKind = (k: string | undefined): k is ProgressKind => k !== undefined && PROGRESS_KINDS.includes(k);

export function applyLiveEvent(client: QueryClient, event: LiveEvent): void {
  const kind = event.type.split('.')[0];
  if (event.type.endsWith('.progress') && isProgressKind(kind)) {
    client.setQueryData(progressKey(kind), event.data);
    return;
  }
  if (event.type.endsWith('.finished') && (kind === 'backup' || kind === 'drill' || kind === 'restore')) {
    client.setQueryData(progressKey(kind), null);
  }
  for (const key of INVALIDATES[event.type] ?? []) void client.invalidateQueries({ queryKey: key });
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
