// The repositories answers (GET/POST/PATCH /admin/repositories, POST /admin/repositories/{name}/test),
// written once. A secret goes up in add and edit bodies and never comes back: `has_secret` says
// whether one is stored.
import { z } from 'zod/v3';
import { listOf } from './list.js';
import { Said } from './said.js';

export const RepositoryType = z.enum(['local', 's3', 'rest', 'rclone', 'folder']);
export type RepositoryType = z.infer<typeof RepositoryType>;

/** What may be shown of a repository's settings (the table holds only these; secrets are in the vault). */
export const RepositoryOptions = z.object({
  region: z.string().min(1).max(64).optional(),
  access_key_id: z.string().min(1).max(256).optional(),
  cacert: z.string().min(1).max(4096).optional(),
  user: z.string().min(1).max(256).optional(),
  rclone_config: z.string().min(1).max(4096).optional(),
  /** A folder target's disk: where it is mounted, found by Sanad when the target is added (never sent by a client). */
  mount_point: z.string().min(1).max(4096).optional(),
});
export type RepositoryOptions = z.infer<typeof RepositoryOptions>;

export const Repository = z.object({
  name: z.string(),
  // Parsed as any string by the GUI, so a newer core's kind still shows.
  type: z.string(),
  location: z.string(),
  options: RepositoryOptions,
  enabled: z.boolean(),
  created_at: z.number(),
  last_ok_at: z.number().nullable(),
  last_error: z.string().nullable(),
  last_error_at: z.number().nullable(),
  /** The last failure as a saying, while its alert is open: the GUI words it in the reader's language. */
  last_error_said: Said.nullable().optional(),
  has_secret: z.boolean().optional(),
  /** A folder target: whether its disk is there now (no restic is started while it is not). */
  connected: z.boolean().optional(),
});
export type Repository = z.infer<typeof Repository>;
export const RepositoryList = listOf(Repository);

export const ProbeResult = z.object({
  name: z.string(),
  ok: z.boolean(),
  initialized: z.boolean(),
  detail: z.string(),
  /** The failure as a saying, when Sanad words it itself (a folder target's disk not connected). */
  said: Said.optional(),
});
export type ProbeResult = z.infer<typeof ProbeResult>;
