// From a `restore.progress` event (or a job's `progress`) to the ProgressBar. Only the `restoring`
// phase has a measure (bytes restic has written of the generation's total); the other phases are
// short or unmeasurable, so they show their name with an indeterminate bar.
import { z } from 'zod/v3';
import type { ProgressValue } from '../../components/ProgressBar';
import type { T } from '../../i18n/i18n';
import { restoreProgressStrings } from './strings';

export { restoreProgressStrings };

type Strings = (typeof restoreProgressStrings)['strings']['en'];
export type RestoreProgressT = T<Strings>;

const Event = z.object({ phase: z.string(), percent: z.number().optional(), bytes_done: z.number().optional(), bytes_total: z.number().optional() });
const PHASES = ['opening', 'reading_manifest', 'restoring', 'verifying', 'assembling', 'checking', 'storing_secrets', 'cleaning_up', 'done'] as const;
const isPhase = (p: string): p is (typeof PHASES)[number] => PHASES.some((x) => x === p);

export function restoreProgressValue(data: unknown, t: RestoreProgressT): ProgressValue | null {
  const parsed = Event.safeParse(data);
  if (!parsed.success) return null;
  const p = parsed.data;
  const step = isPhase(p.phase) ? t(p.phase) : t('working');
  if (p.phase !== 'restoring' || p.percent === undefined) return { fraction: null, step };
  return { fraction: p.percent, step, ...(p.bytes_total !== undefined ? { bytesDone: p.bytes_done ?? 0, bytesTotal: p.bytes_total } : {}) };
}
