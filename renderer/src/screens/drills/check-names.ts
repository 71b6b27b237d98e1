// Drill check names are `<repo>:<check>` (`local:vault:decrypt`) or a name of their own
// (`offsite-copy:read-back`). The GUI shows the check in words and the repository beside it; a
// name it does not know is shown as it is, never hidden. String keys are the check names with `:`
// written `_` (i18next reads `:` as a namespace separator).
import { defineStrings, type T } from '../../i18n/i18n';

export const checkStrings = defineStrings('drill-checks', {
  en: {
    repo_open: 'The repository opens with the passphrase',
    repo_lock: 'No live lock on the repository',
    manifest: 'The manifest is complete: every item there, with its size',
    sqlite_integrity: 'The database copy passes its integrity check',
    vault_decrypt: 'The backup’s vault key opens its vault',
    'read-data': 'A share of the stored data read back',
    'read-data_recheck': 'Data found damaged before, read again',
    restore_rehearsal: 'A rehearsal restore into a scratch folder',
    repositories: 'A repository to check',
    'offsite-copy_read-back': 'The offsite copies read back',
    drill: 'The drill ran to its end',
  },
  ar: {
    repo_open: 'المستودع يُفتح بعبارة المرور',
    repo_lock: 'لا يوجد قفل نشط على المستودع',
    manifest: 'البيان كامل: كل عنصر موجود بحجمه',
    sqlite_integrity: 'نسخة قاعدة البيانات تجتاز فحص السلامة',
    vault_decrypt: 'مفتاح الخزنة في النسخة يفتح خزنتها',
    'read-data': 'قراءة جزء من البيانات المخزّنة',
    'read-data_recheck': 'إعادة قراءة بيانات وُجدت تالفة من قبل',
    restore_rehearsal: 'تمرين استعادة في مجلد مؤقت',
    repositories: 'مستودع للفحص',
    'offsite-copy_read-back': 'قراءة النسخ الخارجية',
    drill: 'اكتمل الاختبار حتى نهايته',
  },
});
type CheckKey = keyof (typeof checkStrings)['strings']['en'];

const isKey = (k: string): k is CheckKey => Object.hasOwn(checkStrings.strings.en, k);
/** [check name, key], longest name first, so `read-data:recheck` wins over `read-data`. */
const KNOWN: Array<[string, CheckKey]> = Object.keys(checkStrings.strings.en)
  .filter(isKey)
  .map((key): [string, CheckKey] => [key.replace(/_/g, ':'), key])
  .sort((a, b) => b[0].length - a[0].length);

export interface CheckName {
  /** The repository the check is about, or null. */
  repo: string | null;
  /** The known check, or null for a name this GUI does not know. */
  key: CheckKey | null;
  raw: string;
}

export function parseCheckName(name: string): CheckName {
  for (const [check, key] of KNOWN) {
    if (name === check) return { repo: null, key, raw: name };
    if (name.endsWith(`:${check}`) && name.length > check.length + 1) return { repo: name.slice(0, -(check.length + 1)), key, raw: name };
  }
  return { repo: null, key: null, raw: name };
}

export function checkLabel(name: CheckName, t: T<(typeof checkStrings)['strings']['en']>): string {
  return name.key === null ? name.raw : t(name.key);
}
