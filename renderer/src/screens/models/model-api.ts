// The Models screen's calls: GET /v1/models (the GUI session has every scope) and the admin routes
// that add (POST /admin/models, which hashes the whole file before it answers) and remove
// (DELETE /admin/models/{id}, which forgets the model and never touches the file).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { api, listOf } from '../../api/http';

export const ModelInfo = z.object({
  id: z.string(),
  path: z.string(),
  size_bytes: z.number(),
  sha256: z.string(),
  // available | missing | changed today; kept open so a newer core's word still shows.
  status: z.string(),
  created: z.number(),
});
export type ModelInfo = z.infer<typeof ModelInfo>;

// Its own key under 'models', so another screen's narrower model query never shares this cache.
export const modelsKey = ['models', 'registry'] as const;

export function useModels() {
  return useQuery({ queryKey: modelsKey, queryFn: () => api('GET', '/v1/models', listOf(ModelInfo)).then((r) => r.data) });
}

export function useAddModel() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: { path: string; id?: string }) => api('POST', '/admin/models', ModelInfo, body),
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
