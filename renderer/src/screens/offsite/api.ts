// The Offsite screen's calls: the repositories (offsite targets; the local one lives on the Backups
// screen), the real write-and-delete test, and the compressed offsite copy's three settings.
// Secrets go up in add and edit bodies and never come back: the server only says `has_secret`.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod/v3';
import { api } from '../../api/http';
import { ProbeResult, Repository, RepositoryList } from '../../../../src/contract/repositories';
import { SettingsSchema } from '../../../../src/contract/settings';
import type { AddBody, PatchBody } from './target-form';

export { ProbeResult, Repository } from '../../../../src/contract/repositories';

/** The compressed offsite copy's three settings, read from GET /admin/settings. */
export const CopySettings = SettingsSchema.pick({ offsite_copy_destination: true, offsite_copy_keep: true, offsite_copy_rclone_config: true });
export type CopySettings = z.infer<typeof CopySettings>;

// Own keys under the shared prefixes: other screens read the same routes with other schemas.
export const targetsKey = ['repositories', 'offsite-targets'] as const;
export const copySettingsKey = ['settings', 'offsite-copy'] as const;

export function useTargets() {
  return useQuery({
    queryKey: targetsKey,
    queryFn: () => api('GET', '/admin/repositories', RepositoryList).then((r) => r.data.filter((repo) => repo.type !== 'local')),
  });
}

function useInvalidateRepositories() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: ['repositories'] });
}

export function useAddTarget() {
  const invalidate = useInvalidateRepositories();
  return useMutation({ mutationFn: (body: AddBody) => api('POST', '/admin/repositories', Repository, body), onSuccess: invalidate });
}

export function useEditTarget(name: string) {
  const invalidate = useInvalidateRepositories();
  return useMutation({
    mutationFn: (body: PatchBody) => api('PATCH', `/admin/repositories/${encodeURIComponent(name)}`, Repository, body),
    onSuccess: invalidate,
  });
}

export function useRemoveTarget(name: string) {
  const invalidate = useInvalidateRepositories();
  return useMutation({
    mutationFn: () => api('DELETE', `/admin/repositories/${encodeURIComponent(name)}`, z.object({ removed: z.boolean() })),
    onSuccess: invalidate,
  });
}

export function useTestTarget(name: string) {
  return useMutation({ mutationFn: () => api('POST', `/admin/repositories/${encodeURIComponent(name)}/test`, ProbeResult) });
}

export function useCopySettings() {
  return useQuery({ queryKey: copySettingsKey, queryFn: () => api('GET', '/admin/settings', CopySettings) });
}

export function useSaveCopySettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (patch: CopySettings) => api('PATCH', '/admin/settings', CopySettings, patch),
    onSuccess: () => client.invalidateQueries({ queryKey: ['settings'] }),
  });
}
