// From a `restore.progress` event (or a job's `progress`) to the ProgressBar. Only the `restoring`
// phase has a measure (bytes restic has written of the generation's total); the other phases are
// short or unmeasurable, so they show their name with an indeterminate bar.
import { z } from 'zod';
import type { ProgressValue } from '../../components/ProgressBar';
import { defineStrings, type T } from '../../i18n/i18n';

export const restoreProgressStrings = defineStrings('restore-progress', {
  en: {
    opening: 'Opening the repository',
    reading_manifest: 'Reading the manifest',
    restoring: 'Restoring the files',
    verifying: 'Verifying every file against the manifest',
    assembling: 'Putting the data dir together',
    checking: 'Checking the restored data',
    storing_secrets: 'Storing the secrets in the keychain',
    cleaning_up: 'Cleaning up',
    done: 'Done',
    working: 'Restoring',
  },
  ar: {
    opening: 'فتح المستودع',
    reading_manifest: 'قراءة البيان',
    restoring: 'استعادة الملفات',
    verifying: 'مطابقة كل ملف مع البيان',
    assembling: 'تجميع دليل البيانات',
    checking: 'فحص البيانات المستعادة',
    storing_secrets: 'حفظ الأسرار في سلسلة المفاتيح',
    cleaning_up: 'التنظيف',
    done: 'تم',
    working: 'جارٍ الاستعادة',
  },
});
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
