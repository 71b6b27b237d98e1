// The live events of GET /admin/events, as one discriminated union: the service publishes them
// (jobs/admin-events.ts takes exactly these shapes) and the GUI parses them with this schema and
// keys its invalidation map by their types, so a renamed event or a changed field breaks the build
// on both sides. Nothing here is stored: a client that connects late reads the state from the
// routes first. Each event's `data` is written out (no open records): what is not declared here
// does not cross the wire.
import { z } from 'zod/v3';
import { Alert } from './alerts.js';
import { BackupRunStatus } from './backups.js';
import { DrillCheck, DrillKind, Verdict } from './drills.js';
import { InspectProgress } from './history.js';
import { Run } from './runs.js';

const BackupFinishedData = z.object({
  run_id: z.number(),
  generation: z.number().nullable(),
  status: BackupRunStatus,
  repositories: z.array(z.object({ name: z.string(), ok: z.boolean(), error: z.string().nullable() })),
  error: z.string().nullable(),
});

const DrillFinishedData = z.object({
  run_id: z.number(),
  id: z.number(),
  kind: DrillKind,
  verdict: Verdict.nullable(),
  interrupted: z.boolean().optional(),
  checks: z.array(DrillCheck).optional(),
  error: z.string().optional(),
});

const RestoreFinishedData = z.object({
  run_id: z.number(),
  id: z.number(),
  status: z.enum(['ok', 'failed']),
  ok: z.boolean(),
  generation: z.number().nullable(),
  target: z.string(),
  error: z.string().nullable(),
});

/** One event type and the shape of its data. */
const event = <T extends string, D extends z.ZodTypeAny>(type: T, data: D) => z.object({ id: z.number(), type: z.literal(type), at: z.number(), data });

export const AdminEvent = z.discriminatedUnion('type', [
  event('backup.finished', BackupFinishedData),
  event('drill.finished', DrillFinishedData),
  event('restore.finished', RestoreFinishedData),
  // A generation's store being read out of its repository to look inside it (history/).
  event('generation.progress', InspectProgress.extend({ repo: z.string(), generation: z.number() })),
  // Responses were brought back from a generation into the live data.
  event('history.changed', z.object({ generation: z.number(), brought_back: z.array(z.string()) })),
  event(
    'passphrase.rotated',
    z.object({
      repositories: z.array(z.object({ name: z.string(), ok: z.boolean(), skipped: z.string().nullable(), old_keys_removed: z.boolean() })),
      warnings: z.array(z.string()),
    }),
  ),
  event('vault.rotated', z.object({ values: z.number() })),
  event('alerts.changed', z.object({ alerts: z.array(Alert) })),
  // A client paired, was made or was revoked (no token in it).
  event('clients.changed', z.object({ client_id: z.string(), change: z.enum(['paired', 'created', 'revoked']) })),
  // The network listener went on or off, its names or its certificate changed (appliance/lan/).
  event('lan.changed', z.object({ change: z.enum(['on', 'off', 'names', 'new-certificate']) })),
  // A model download's end (registered, failed or cancelled); its bytes are its run's (run.updated).
  event('pull.finished', z.object({ id: z.string(), model_id: z.string(), status: z.string(), error: z.string().nullable() })),
  // A recorded run was asked for, started, or its progress changed (jobs/jobs.ts writes it to the
  // run, a new step at once, else at most twice a second): its row, progress included, with
  // `run_id`. This is the one live channel of a backup's, drill's or restore's progress.
  event('run.updated', Run.extend({ run_id: z.number() })),
  // A recorded run (backup, drill, restore: jobs/runs.ts) ended: its row, with `run_id`.
  event('run.finished', Run.extend({ run_id: z.number() })),
]);
export type AdminEvent = z.infer<typeof AdminEvent>;
export type AdminEventType = AdminEvent['type'];
/** The data an event of `type` carries. */
export type AdminEventData<T extends AdminEventType> = Extract<AdminEvent, { type: T }>['data'];
