// GET /admin/status: the service, where its secrets are, and the task counts, written once.
import { z } from 'zod/v3';

export const AdminStatus = z.object({
  service: z.object({ address: z.string(), loaded_model: z.string().nullable(), data_dir: z.string() }),
  secrets: z.object({ store: z.string(), recovery_kit_confirmed_at: z.number().nullable() }),
  tasks: z.object({ running: z.number(), queued: z.number(), by_status: z.record(z.number()) }),
});
export type AdminStatus = z.infer<typeof AdminStatus>;
