// TanStack Query settings shared by the app and the component tests. Live data comes from SSE
// invalidation (api/live-events.ts), so queries do not poll; a failed call is retried once, and
// never when the server said no (4xx): that is an answer, not a glitch.
import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './http';

export function makeQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 5_000,
        refetchOnWindowFocus: true,
        retry: (count, error) => !(error instanceof ApiError && error.status >= 400 && error.status < 500) && count < 1,
      },
      mutations: { retry: false },
    },
  });
}
