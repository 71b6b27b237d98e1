// Model pulls as the admin API shows them (GET/POST /admin/models/pulls…) and the GUI reads them.
import { z } from 'zod/v3';

export const PullProgress = z.object({
  bytes: z.number(),
  total: z.number(),
  /** Bytes per second. */
  rate: z.number(),
  /** Seconds left; null while unknown. */
  eta: z.number().nullable(),
  phase: z.enum(['downloading', 'verifying']),
});

/** The file a pull fetches, as both the plan and the pull name it. */
const PullFile = z.object({
  uri: z.string(),
  model_id: z.string(),
  file_name: z.string(),
  size_bytes: z.number(),
  sha256: z.string().nullable(),
  revision: z.string().nullable(),
});

export const Pull = PullFile.extend({
  id: z.string(),
  // Parsed as any string by the GUI, so a newer core's word still shows.
  status: z.string(),
  error: z.string().nullable(),
  progress: PullProgress.nullable(),
  /** Unix ms. */
  created_at: z.number(),
  /** Its run (GET /admin/runs/{id}, kind `pull`); null for a pull recorded before pulls were runs. */
  run_id: z.number().nullable(),
  finished_at: z.number().nullable(),
});
export type Pull = z.infer<typeof Pull>;
export const PullList = z.object({ object: z.literal('list'), data: z.array(Pull) });

/** What a pull would do, said before it starts (POST /admin/models/pulls/plan). */
export const PullPlanShown = PullFile.extend({
  /** The same in English sentences (the CLI prints them); the GUI says it from the fields below. */
  sentences: z.array(z.string()),
  fits_memory: z.boolean().nullable(),
  already_registered: z.string().nullable(),
  disk_free: z.number().nullable(),
  disk_needed: z.number(),
  memory_needed: z.number().nullable(),
  memory_total: z.number().nullable(),
  context_size: z.number().nullable(),
  /** Where the sha256 comes from: the hub, the user (--sha256), or none is published. */
  sha256_from: z.enum(['hub', 'given']).nullable(),
  /** For hf:OWNER/REPO: the quant chosen and the others offered. */
  chosen_quant: z.string().nullable(),
  offered: z.array(z.object({ quant: z.string().nullable(), size: z.number() })),
});
export type PullPlanShown = z.infer<typeof PullPlanShown>;
