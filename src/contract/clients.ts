// The clients answers the GUI reads (GET/POST /admin/clients, revoke, POST /admin/pairing-codes),
// written once. A new client's token is in the answer that makes it and never again.
import { z } from 'zod/v3';
import { listOf } from './list.js';

export const SCOPES = ['models:read', 'responses:write', 'tasks:read', 'tasks:write', 'admin'] as const;
export const Scope = z.enum(SCOPES);
export type Scope = z.infer<typeof Scope>;

export const ClientInfo = z.object({
  id: z.string(),
  name: z.string(),
  // Parsed as any string by the GUI, so a newer core's scope still shows.
  scopes: z.array(z.string()),
  created_at: z.number(),
  last_used_at: z.number().nullable(),
  // Where its last request came from (an IP address); absent from a core before devices on the network.
  last_address: z.string().nullable().optional(),
  revoked_at: z.number().nullable(),
});
export type ClientInfo = z.infer<typeof ClientInfo>;
export const ClientList = listOf(ClientInfo);

export const PairingCode = z.object({
  code: z.string(),
  expires_at: z.number(),
  // While the network listener is on: where a device pairs, and the certificate it must pin first.
  lan_url: z.string().optional(),
  tls_fingerprint_sha256: z.string().optional(),
});
export type PairingCode = z.infer<typeof PairingCode>;
export const NewClient = z.object({ client_id: z.string(), token: z.string(), scopes: z.array(z.string()) });
export type NewClient = z.infer<typeof NewClient>;
export const ClientRevoked = z.object({ id: z.string(), revoked: z.literal(true) });
export type ClientRevoked = z.infer<typeof ClientRevoked>;
