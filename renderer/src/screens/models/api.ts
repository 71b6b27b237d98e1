// The Models screen's calls: GET /v1/models (the GUI session has every scope) and the admin routes
// that add (POST /admin/models, which hashes the whole file before it answers) and remove
// (DELETE /admin/models/{id}, which forgets the model and never touches the file), and loading
// or unloading one by hand.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod/v3';
import { api } from '../../api/http';
import { Model, ModelList, type Model as ModelValue } from '../../../../src/contract/tasks';
import type { AddModelRequest } from '../../../../src/contract/admin-requests';

/** A registered model as GET /v1/models and POST /admin/models answer it. */
export const ModelInfo = Model;
export type ModelInfo = ModelValue;

// Its own key under 'models', so another screen's narrower model query never shares this cache.
export const modelsKey = ['models', 'registry'] as const;

export function useModels() {
  // Polled: a model loads on a client's request and unloads when idle, with no event of its own.
  return useQuery({ queryKey: modelsKey, queryFn: () => api('GET', '/v1/models', ModelList).then((r) => r.data), refetchInterval: 10_000 });
}

/** Loads a model now, or unloads it (POST /admin/models/{id}/load | unload); both answer the model. */
export function useModelMemory(action: 'load' | 'unload') {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api('POST', `/admin/models/${encodeURIComponent(id)}/${action}`, Model, {}),
    onSuccess: () => client.invalidateQueries({ queryKey: ['models'] }),
  });
}

export function useAddModel() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: z.input<typeof AddModelRequest>) => api('POST', '/admin/models', Model, body),
    onSuccess: () => client.invalidateQueries({ queryKey: ['models'] }),
  });
}

export function useRemoveModel() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api('DELETE', `/admin/models/${encodeURIComponent(id)}`, z.object({ id: z.string() })),
    onSuccess: () => client.invalidateQueries({ queryKey: ['models'] }),
  });
}
