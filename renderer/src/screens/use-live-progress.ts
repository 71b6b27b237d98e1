// The latest progress event of one kind of operation, as api/live-events.ts keeps it in the query
// cache (the event's `data`; null when none runs or it finished). Never fetched: only events fill it.
import { useQuery } from '@tanstack/react-query';
import { progressKey, type ProgressKind } from '../api/live-events';

export function useLiveProgress(kind: ProgressKind): Record<string, unknown> | null {
  const q = useQuery({ queryKey: progressKey(kind), queryFn: (): Record<string, unknown> | null => null, staleTime: Infinity });
  return q.data ?? null;
}
