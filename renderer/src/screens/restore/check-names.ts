// The restore's checklist names (src/restore/*: stable names, see README "Restore") in words. Two
// carry a value: `item:<path>` (a file matched the manifest) and `models:<id>`. A name this GUI does
// not know is shown as it is. String keys are the names with `:` written `_` (i18next reads `:`
// as a namespace separator).
import { defineStrings, type T } from '../../i18n/i18n';
import { isolate } from '../bidi';

export const restoreCheckStrings = defineStrings('restore-checks', {
  en: {
    target_outside_live: 'The folder is apart from the data Sanad is using',
    target_empty: 'The folder is empty or new',
    keychain_available: 'The keychain can hold the restored secrets',
    snapshot_found: 'The generation is in the repository',
    manifest_valid: 'The manifest is valid',
    snapshot_restored: 'The files came out of the repository',
    files_placed: 'The files are where Sanad reads them',
    sqlite_integrity: 'The database passes its integrity check',
    sqlite_tables: 'The database has all its tables',
    registry_updated: 'The models point at the restored files',
    vault_decrypt: 'The backup’s vault key opens the restored vault',
    store_located: 'Sanad finds its store where it will read it',
    target_layout: 'The folder holds the data and nothing else',
    keychain_stored: 'The restored secrets are in the keychain',
    restore_completed: 'The restore ran to its end',
    restore_cancelled: 'The restore was not cancelled',
    item: 'Matches the backup (size and checksum): {{value}}',
    models: 'Model ready: {{value}}',
  },
  ar: {
    target_outside_live: 'المجلد منفصل عن البيانات التي يستخدمها سند',
    target_empty: 'المجلد فارغ أو جديد',
    keychain_available: 'سلسلة المفاتيح قادرة على حفظ الأسرار المستعادة',
    snapshot_found: 'الجيل موجود في المستودع',
    manifest_valid: 'البيان سليم',
    snapshot_restored: 'استُخرجت الملفات من المستودع',
    files_placed: 'الملفات في المكان الذي يقرؤها منه سند',
    sqlite_integrity: 'قاعدة البيانات تجتاز فحص السلامة',
    sqlite_tables: 'قاعدة البيانات تحوي كل جداولها',
    registry_updated: 'النماذج تشير إلى الملفات المستعادة',
    vault_decrypt: 'مفتاح الخزنة في النسخة يفتح الخزنة المستعادة',
    store_located: 'يجد سند مخزنه حيث سيقرؤه',
    target_layout: 'المجلد يحوي البيانات ولا شيء غيرها',
    keychain_stored: 'الأسرار المستعادة محفوظة في سلسلة المفاتيح',
    restore_completed: 'اكتملت الاستعادة حتى نهايتها',
    restore_cancelled: 'لم تُلغَ الاستعادة',
    item: 'مطابق للنسخة الاحتياطية (الحجم والمجموع الاختباري): {{value}}',
    models: 'النموذج جاهز: {{value}}',
  },
});
type Strings = (typeof restoreCheckStrings)['strings']['en'];
type Key = keyof Strings;

const isKey = (k: string): k is Key => Object.hasOwn(restoreCheckStrings.strings.en, k);
const WITH_VALUE = ['item', 'models'] as const;

export function restoreCheckLabel(name: string, t: T<Strings>): string {
  const key = name.replace(/:/g, '_');
  if (isKey(key) && !WITH_VALUE.some((w) => w === key)) return t(key);
  for (const prefix of WITH_VALUE) {
    if (name.startsWith(`${prefix}:`) && name.length > prefix.length + 1) return t(prefix, { value: isolate(name.slice(prefix.length + 1)) });
  }
  return name;
}
