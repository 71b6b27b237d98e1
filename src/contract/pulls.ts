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

export const Pull = z.object({
  id: z.string(),
  uri: z.string(),
  model_id: z.string(),
  file_name: z.string(),
  size_bytes: z.number(),
  sha256: z.string().nullable(),
  revision: z.string().nullable(),
  // Parsed as any string by the GUI, so a newer core's word still shows.
  status: z.string(),
  error: z.string().nullable(),
  progress: PullProgress.nullable(),
  /** Unix ms. */
  created_at: z.number(),
  finished_at: z.number().nullable(),
});
export type Pull = z.infer<typeof Pull>;
export const PullList = z.object({ object: z.literal('list'), data: z.array(Pull) });

/** What a pull would do, said before it starts (POST /admin/models/pulls/plan). */
export const PullPlanShown = z.object({
  uri: z.string(),
  model_id: z.string(),
  file_name: z.string(),
  size_bytes: z.number(),
  sha256: z.string().nullable(),
  revision: z.string().nullable(),
  sentences: z.array(z.string()),
  fits_memory: z.boolean().nullable(),
  already_registered: z.string().nullable(),
});
export type PullPlanShown = z.infer<typeof PullPlanShown>;
