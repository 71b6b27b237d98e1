// The latest progress event of one kind of operation, as api/live-events.ts keeps it in the query
// cache (the event's `data`; null when none runs or it finished). Never fetched: only events fill it.
import { useQuery } from '@tanstack/react-query';
import { progressKey, type ProgressKind, type ProgressOf } from '../api/live-events';

export function useLiveProgress<K extends ProgressKind>(kind: K): ProgressOf<K> | null {
  const q = useQuery<ProgressOf<K> | null>({ queryKey: progressKey(kind), queryFn: async () => null, staleTime: Infinity });
  return q.data ?? null;
}
