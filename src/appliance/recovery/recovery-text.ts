// The recovery screen's words, English and Arabic. It shows when the store is damaged, so it
// cannot use the GUI's own string tables (the GUI may be what fails to load); it is small.
export type RecoveryLanguage = 'en' | 'ar';

export const RECOVERY_TEXT = {
  en: {
    title: 'Sanad: your data needs restoring',
    damaged: 'The store of your data is damaged, so Sanad did not open it. It has not been changed: it stays where it is for you.',
    file: 'Damaged file',
    lastGood: 'Last good backup',
    none: 'no record of one was found beside the store',
    generation: 'generation',
    restoreHeading: 'Restore from the local backup',
    restoreHelp: 'The newest generation is restored into a new, empty folder and checked piece by piece. Your damaged data is only read.',
    folder: 'New folder',
    restore: 'Restore',
    restoring: 'Restoring… this page updates when it is done.',
    showFolder: 'Show the damaged folder',
    restored: 'Restored and verified into',
    open: 'Open the restored data',
    opening: 'Opening the restored data… Sanad restarts on it.',
    failed: 'The restore did not complete',
    offsite: 'To restore from an offsite repository instead, use `sanad restore --repo NAME` in a terminal.',
    signIn: 'Open this screen from the Sanad app.',
  },
  ar: {
    title: 'سَنَد: بياناتك تحتاج إلى الاستعادة',
    damaged: 'مخزن بياناتك تالف، فلم يفتحه سَنَد. لم يُغيَّر فيه شيء: يبقى في مكانه لك.',
    file: 'الملف التالف',
    lastGood: 'آخر نسخة احتياطية سليمة',
    none: 'لم يُعثر على سجلٍّ لها بجانب المخزن',
    generation: 'الجيل',
    restoreHeading: 'الاستعادة من النسخة الاحتياطية المحلية',
    restoreHelp: 'يُستعاد أحدث جيل إلى مجلد جديد فارغ ويُتحقَّق منه جزءًا جزءًا. بياناتك التالفة تُقرأ فقط.',
    folder: 'المجلد الجديد',
    restore: 'استعادة',
    restoring: 'جارٍ الاستعادة… تتحدّث هذه الصفحة حين تنتهي.',
    showFolder: 'أظهر المجلد التالف',
    restored: 'استُعيدت البيانات وتُحقِّق منها في',
    open: 'افتح البيانات المستعادة',
    opening: 'جارٍ فتح البيانات المستعادة… يُعاد تشغيل سَنَد عليها.',
    failed: 'لم تكتمل الاستعادة',
    offsite: 'للاستعادة من مستودع خارجي بدلًا من ذلك، استعمل ‎`sanad restore --repo NAME`‎ في الطرفية.',
    signIn: 'افتح هذه الشاشة من تطبيق سَنَد.',
  },
} as const satisfies Record<RecoveryLanguage, Record<string, string>>;

export function languageOf(acceptLanguage: string | undefined): RecoveryLanguage {
  return /^\s*ar\b/i.test(acceptLanguage ?? '') ? 'ar' : 'en';
}
