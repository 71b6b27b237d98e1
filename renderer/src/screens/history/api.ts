// What the generation view reads: a generation's summary, its responses (paged, searched), what
// changed since it, and the record of what was brought back (src/contract/history.ts). Keys start
// with 'history' so `history.changed` refreshes them (api/live-events.ts). Reading a generation
// out of its repository takes a moment the first time; the service keeps the copy for a while.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod/v3';
import { api } from '../../api/http';
import {
  BringBackEntry,
  BringBackResult,
  GenerationConversationPage,
  GenerationDiff,
  GenerationResponsePage,
  GenerationSummary,
} from '../../../../src/contract/history';
import type { BringBackRequest } from '../../../../src/contract/admin-requests';

export type {
  BringBackEntry,
  BringBackResult,
  GenerationConversation,
  GenerationDiff,
  GenerationResponse,
  GenerationResponsePage,
  GenerationSummary,
} from '../../../../src/contract/history';

const base = (generation: number): string => `/admin/generations/${generation}`;
const repoQuery = (repo: string): string => `repo=${encodeURIComponent(repo)}`;

export const useGenerationSummary = (repo: string, generation: number) =>
  useQuery({
    queryKey: ['history', 'summary', repo, generation],
    queryFn: () => api('GET', `${base(generation)}?${repoQuery(repo)}`, GenerationSummary),
    staleTime: 60_000,
    retry: false,
  });

export const useGenerationResponses = (repo: string, generation: number, q: string, after: string | null, enabled: boolean) =>
  useQuery({
    queryKey: ['history', 'responses', repo, generation, q, after],
    queryFn: () => {
      const params = new URLSearchParams({ repo, limit: '20', ...(q ? { q } : {}), ...(after ? { after } : {}) });
      return api('GET', `${base(generation)}/responses?${params.toString()}`, GenerationResponsePage);
    },
    enabled,
    placeholderData: (previous) => previous,
  });

export const useGenerationConversations = (repo: string, generation: number, q: string, after: string | null) =>
  useQuery({
    queryKey: ['history', 'conversations', repo, generation, q, after],
    queryFn: () => {
      const params = new URLSearchParams({ repo, limit: '20', ...(q ? { q } : {}), ...(after ? { after } : {}) });
      return api('GET', `${base(generation)}/conversations?${params.toString()}`, GenerationConversationPage);
    },
    placeholderData: (previous) => previous,
  });

export const useGenerationDiff = (repo: string, generation: number, enabled: boolean) =>
  useQuery({
    queryKey: ['history', 'diff', repo, generation],
    queryFn: () => api('GET', `${base(generation)}/diff?${repoQuery(repo)}&to=live`, GenerationDiff),
    enabled,
  });

export const useBringBacks = () =>
  useQuery({
    queryKey: ['history', 'bring-backs'],
    queryFn: () => api('GET', '/admin/bring-backs', z.object({ data: z.array(BringBackEntry) })).then((l) => l.data),
  });

export function useBringBack(repo: string, generation: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { id: string; undelete: boolean }) =>
      api('POST', `${base(generation)}/bring-back`, BringBackResult, { repo, responses: [input.id], undelete: input.undelete } satisfies z.input<
        typeof BringBackRequest
      >),
    onSuccess: () => void client.invalidateQueries({ queryKey: ['history'] }),
  });
}
