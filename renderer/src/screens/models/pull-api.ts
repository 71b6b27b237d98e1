// Getting a model from a hub, from the GUI: the plan (POST /admin/models/pulls/plan, said before
// anything downloads), the start (POST /admin/models/pulls), the pulls with their progress
// (GET /admin/models/pulls, read every second while one runs), cancel, and a model's settings.
import type { z } from 'zod/v3';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/http';
import { Pull, PullList, PullPlanShown } from '../../../../src/contract/pulls';
import { Model } from '../../../../src/contract/tasks';
import type { ModelSettingsRequest, PullRequest } from '../../../../src/contract/admin-requests';

export const pullsKey = ['models', 'pulls'] as const;

export type PullAsk = z.input<typeof PullRequest>;

export function usePullPlan() {
  return useMutation({ mutationFn: (body: PullAsk) => api('POST', '/admin/models/pulls/plan', PullPlanShown, body) });
}

export function useStartPull() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: PullAsk) => api('POST', '/admin/models/pulls', Pull, body),
    onSuccess: () => client.invalidateQueries({ queryKey: ['models'] }),
  });
}

const live = (p: Pull): boolean => p.status === 'running' || p.status === 'waiting';

export function usePulls() {
  const client = useQueryClient();
  return useQuery({
    queryKey: pullsKey,
    queryFn: async () => {
      const list = await api('GET', '/admin/models/pulls', PullList);
      // A pull that just ended registered a model (or not): the model list is read again.
      const previous = client.getQueryData<Pull[]>(pullsKey) ?? [];
      if (previous.some((p) => live(p) && list.data.some((q) => q.id === p.id && !live(q))))
        void client.invalidateQueries({ queryKey: ['models', 'registry'] });
      return list.data;
    },
    refetchInterval: (q) => ((q.state.data ?? []).some(live) ? 1000 : false),
  });
}

export function useCancelPull() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api('POST', `/admin/models/pulls/${encodeURIComponent(id)}/cancel`, Pull),
    onSuccess: () => client.invalidateQueries({ queryKey: pullsKey }),
  });
}

export type SettingsPatch = z.input<typeof ModelSettingsRequest>;

export function useModelSettings(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: SettingsPatch) => api('POST', `/admin/models/${encodeURIComponent(id)}/settings`, Model, body),
    onSuccess: () => client.invalidateQueries({ queryKey: ['models'] }),
  });
}

export { live as pullIsLive };
