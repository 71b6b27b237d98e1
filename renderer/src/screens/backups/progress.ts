// From a `backup.progress` event (or the `progress` of GET /admin/backups/status, the same shape)
// to what the ProgressBar shows. Three phases: making the generation (no meaningful total: an
// indeterminate bar with the step in words), restic's upload to one repository, whose `percent` is
// restic's `percent_done`, a fraction 0..1, with files and bytes done of the totals, and "Copy to
// offsite now" copying to one repository (restic copy reports no progress: indeterminate).
import { z } from 'zod/v3';
import type { ProgressValue } from '../../components/ProgressBar';
import type { T } from '../../i18n/i18n';
import { progressStrings } from './strings';

export { progressStrings };

export type ProgressT = T<(typeof progressStrings)['strings']['en']>;

const Event = z.object({
  phase: z.enum(['generation', 'upload', 'copy']),
  step: z.string().optional(),
  repository: z.string().optional(),
  percent: z.number().optional(),
  files_done: z.number().optional(),
  total_files: z.number().optional(),
  bytes_done: z.number().optional(),
  total_bytes: z.number().optional(),
});

const STEPS = [
  'preparing',
  'reusing_store',
  'copying_store',
  'checking_store',
  'vault_key',
  'models',
  'rehashing_model',
  'hashing',
  'manifest',
  'renaming',
  'done',
] as const;
type Step = (typeof STEPS)[number];
const isStep = (s: string | undefined): s is Step => STEPS.some((k) => k === s);

/** The bar's value for a progress report, or null when there is none (or it is not one). */
export function backupProgressValue(data: unknown, t: ProgressT): ProgressValue | null {
  const parsed = Event.safeParse(data);
  if (!parsed.success) return null;
  const p = parsed.data;
  if (p.phase === 'generation') return { fraction: null, step: isStep(p.step) ? t(p.step) : t('working') };
  // restic copy prints no progress: an indeterminate bar naming the target.
  if (p.phase === 'copy') return { fraction: null, step: p.repository ? t('copying', { repo: p.repository }) : t('working') };
  const fraction = p.percent ?? (p.total_bytes ? (p.bytes_done ?? 0) / p.total_bytes : null);
  return {
    fraction,
    step: p.repository ? t('uploading', { repo: p.repository }) : t('working'),
    ...(p.total_files !== undefined ? { filesDone: p.files_done ?? 0, filesTotal: p.total_files } : {}),
    ...(p.total_bytes !== undefined ? { bytesDone: p.bytes_done ?? 0, bytesTotal: p.total_bytes } : {}),
  };
}
