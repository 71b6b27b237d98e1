// The Clients screen's calls: pairing codes, clients, tokens and revocation (all /admin). The
// list also refreshes live: the core announces `clients.changed` when a code is redeemed.
import type { z } from 'zod/v3';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/http';
import { browserNow } from '../../clock';
import { pairingDeadline } from './countdown';

import { ClientList, ClientRevoked, NewClient, PairingCode, SCOPES, type Scope } from '../../../../src/contract/clients';
import type { NewClientRequest, PairingCodeRequest } from '../../../../src/contract/admin-requests';

export { ClientInfo, SCOPES, type Scope } from '../../../../src/contract/clients';

/** The string key that describes each scope (i18next reads ':' in a key as a namespace). */
export const SCOPE_TEXT = {
  'models:read': 'scopeModelsRead',
  'responses:write': 'scopeResponsesWrite',
  'tasks:read': 'scopeTasksRead',
  'tasks:write': 'scopeTasksWrite',
  admin: 'scopeAdmin',
} as const satisfies Record<Scope, string>;

export function isScope(value: string): value is Scope {
  return SCOPES.some((s) => s === value);
}

export const clientsKey = ['clients', 'list'] as const;

export function useClients() {
  return useQuery({ queryKey: clientsKey, queryFn: () => api('GET', '/admin/clients', ClientList).then((r) => r.data) });
}

export interface ShownCode {
  code: string;
  /** When it stops working, on this machine's clock (see countdown.ts). */
  deadlineMs: number;
  /** While devices on the network are on: where they pair, and the certificate they pin first. */
  lan: { url: string; fingerprint: string } | null;
}

export function useMakePairingCode() {
  return useMutation({
    mutationFn: async ({ scopes, ttlS }: { scopes: Scope[]; ttlS: number }): Promise<ShownCode> => {
      const requestedAt = browserNow();
      const made = await api('POST', '/admin/pairing-codes', PairingCode, { scopes, ttl_s: ttlS } satisfies z.input<typeof PairingCodeRequest>);
      const lan =
        made.lan_url !== undefined && made.tls_fingerprint_sha256 !== undefined ? { url: made.lan_url, fingerprint: made.tls_fingerprint_sha256 } : null;
      return { code: made.code, deadlineMs: pairingDeadline(requestedAt, ttlS), lan };
    },
  });
}

export function useCreateClient() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: z.input<typeof NewClientRequest>) => api('POST', '/admin/clients', NewClient, body),
    onSuccess: () => client.invalidateQueries({ queryKey: ['clients'] }),
  });
}

export function useRevokeClient() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api('POST', `/admin/clients/${encodeURIComponent(id)}/revoke`, ClientRevoked),
    onSuccess: () => client.invalidateQueries({ queryKey: ['clients'] }),
  });
}
