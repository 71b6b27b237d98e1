// The bodies of the admin requests (and the pairing request), declared once: the service parses
// every request with these schemas and the GUI builds its bodies as their `z.input<>`, so a field
// renamed on one side breaks the other's build. The public model API's request shapes are the
// doors' own files (responses.ts, chat-completions.ts, anthropic-messages.ts, …); settings patches
// are SettingsSchema's (settings.ts).
import { z } from 'zod/v3';
import { SCOPES } from './clients.js';
import { RunKind } from './run-status.js';

export const ScopesList = z.array(z.enum(SCOPES)).min(1);

export const PairingCodeRequest = z.object({ scopes: ScopesList, ttl_s: z.number().int().min(30).max(86_400).default(600) });

export const NewClientRequest = z.object({ name: z.string().trim().min(1).max(100), scopes: ScopesList });

export const AddModelRequest = z.object({ path: z.string().min(1).max(4096), id: z.string().min(1).max(128).optional() });

// Option strings are never empty: an empty field is an absent one (and a 400 naming it, not a 500).
export const RepositoryOptionsRequest = z
  .object({
    region: z.string().min(1).max(64),
    access_key_id: z.string().min(1).max(256),
    cacert: z.string().min(1).max(4096),
    user: z.string().min(1).max(256),
    rclone_config: z.string().min(1).max(4096),
  })
  .partial()
  .strict();

export const AddRepositoryRequest = z.object({
  name: z.string(),
  type: z.enum(['s3', 'rest', 'rclone', 'folder']),
  location: z.string().min(1).max(4096),
  options: RepositoryOptionsRequest.optional(),
  secret: z.string().min(1).max(4096).optional(),
});

// An edit: only what is sent changes; `options` is the whole new set; `secret` null removes it.
export const RepositoryPatchRequest = z
  .object({
    location: z.string().min(1).max(4096),
    options: RepositoryOptionsRequest,
    enabled: z.boolean(),
    secret: z.string().min(1).max(4096).nullable(),
  })
  .partial()
  .strict();

export const StartBackupRequest = z.object({ queue: z.boolean().optional() }).strict();

export const EmptyRequest = z.object({}).strict();

export const StartDrillRequest = z.object({ deep: z.boolean().optional(), repo: z.string().min(1).max(64).optional() }).strict();

export const PullRequest = z
  .object({
    uri: z.string().trim().min(3).max(2048),
    id: z.string().min(1).max(128).optional(),
    sha256: z.string().trim().max(64).optional(),
  })
  .strict();

export const ModelSettingsRequest = z
  .object({
    context_size: z.number().int().nullable().optional(),
    gpu_layers: z
      .union([z.literal('auto'), z.number().int()])
      .nullable()
      .optional(),
    temperature: z.number().nullable().optional(),
    max_output_tokens: z.number().int().nullable().optional(),
    backup: z.enum(['include', 'source']).optional(),
  })
  .strict();

export const HubTokenRequest = z.object({ token: z.string().trim().min(8).max(4096) }).strict();

export const PairRequest = z.object({ code: z.string().min(1).max(64), client_name: z.string().trim().min(1).max(100) });

export const RestoreTargetCheckRequest = z.object({ target: z.string().min(1).max(4096) });

export const RestoreRepoName = z.string().min(1).max(64);

export const RestorePassphrase = z.string().min(1).max(1024);

export const RestoreGenerationsRequest = z.object({ repo: RestoreRepoName.optional(), passphrase: RestorePassphrase.optional() });

export const StartRestoreRequest = z.object({
  target: z.string().min(1).max(4096),
  generation: z.number().int().positive().optional(),
  repo: RestoreRepoName.optional(),
  passphrase: RestorePassphrase.optional(),
  models_in_place: z.boolean().optional(),
  keep_clients: z.boolean().optional(),
});

export const SecretValueRequest = z.object({
  value: z
    .string()
    .min(1)
    .max(64 * 1024),
});

export const BringBackRepoName = z.string().min(1).max(64);

export const BringBackId = z.string().min(1).max(200);

export const BringBackRequest = z
  .object({
    repo: BringBackRepoName.optional(),
    responses: z.array(BringBackId).min(1).max(1000),
    undelete: z.boolean().optional(),
  })
  .strict();

// Moving the local repository: later backups go to this absolute path.
export const MoveLocalRepositoryRequest = z.object({ location: z.string().min(1).max(4096) });

// GET /admin/runs: newest first, of one kind or every kind; `open=true`: only the queued and
// running ones (what the tray and the Overview show as going on).
export const RunsQuery = z
  .object({
    kind: RunKind.optional(),
    open: z.enum(['true', 'false']).optional(),
    limit: z.coerce.number().int().min(1).max(500).default(50),
    before: z.coerce.number().int().min(1).optional(),
  })
  .strict();
