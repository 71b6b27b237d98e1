// Schemas for restic's JSON output, one per `message_type` (backup) or per command (snapshots,
// forget, key list print one JSON document). Fields restic adds in later versions are tolerated;
// fields 0.14 omits (`omitempty`) default, so the same schema reads 0.14 and current releases.
import { z } from 'zod/v3';

const count = z.number().nonnegative().default(0);

export const backupStatus = z.object({
  message_type: z.literal('status'),
  percent_done: z.number().default(0),
  total_files: count,
  files_done: count,
  total_bytes: count,
  bytes_done: count,
});

export const backupError = z.object({
  message_type: z.literal('error'),
  // 0.14 marshals Go errors as `{}`; later releases give `{ message }`.
  error: z.object({ message: z.string().optional() }).passthrough().optional(),
  during: z.string().optional(),
  item: z.string().optional(),
});

export const backupSummary = z.object({
  message_type: z.literal('summary'),
  files_new: count,
  files_changed: count,
  files_unmodified: count,
  data_added: count,
  total_files_processed: count,
  total_bytes_processed: count,
  snapshot_id: z.string().min(1),
});

/** Messages restic may print that Sanad has no use for; recognised so they do not land in the tail. */
export const backupOther = z.object({ message_type: z.enum(['verbose_status']) });

export const snapshot = z.object({
  id: z.string(),
  short_id: z.string(),
  time: z.string(),
  paths: z
    .array(z.string())
    .nullable()
    .transform((v) => v ?? []),
  tags: z
    .array(z.string())
    .nullish()
    .transform((v) => v ?? []),
  hostname: z.string(),
  parent: z.string().optional(),
  /** The snapshot `restic copy` made this one from (its full id, in the source repository). */
  original: z.string().optional(),
  /** 0.17+ only. */
  summary: z.object({ total_bytes_processed: z.number().nonnegative().optional() }).optional(),
});
export type Snapshot = z.infer<typeof snapshot>;

export const snapshotList = z
  .array(snapshot)
  .nullable()
  .transform((v) => v ?? []);

export const forgetGroups = z.array(
  z.object({
    keep: z.array(snapshot).nullish(),
    remove: z.array(snapshot).nullish(),
  }),
);

export const keyList = z.array(
  z.object({
    id: z.string(),
    current: z.boolean(),
    userName: z.string(),
    hostName: z.string(),
    created: z.string(),
  }),
);
export type ResticKey = z.infer<typeof keyList>[number];

/** JSON.parse that answers `undefined` for a line that is not JSON (restic mixes text in). */
export function parseJsonLine(line: string): unknown {
  const t = line.trim();
  if (!(t.startsWith('{') || t.startsWith('['))) return undefined;
  try {
    const value: unknown = JSON.parse(t);
    return value;
  } catch {
    return undefined;
  }
}

/** `restic ls --json`: the snapshot first, then one node per line. */
export const lsSnapshot = z.object({ struct_type: z.literal('snapshot'), id: z.string() });
export const lsNode = z.object({
  struct_type: z.literal('node'),
  name: z.string(),
  type: z.string(),
  path: z.string(),
  // omitempty in restic: a zero-length file has no size field.
  size: z.number().int().nonnegative().default(0),
});

/** `restic cat lock ID`: a lock file (pretty-printed JSON over several lines). */
export const lockFile = z.object({
  time: z.string(),
  exclusive: z.boolean().default(false),
  hostname: z.string(),
  username: z.string().default(''),
  pid: z.number().int(),
});
