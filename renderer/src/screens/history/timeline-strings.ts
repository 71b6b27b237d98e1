// The words of the protection timeline, English and Arabic (on the first screen: kept apart from
// the generation view's, which load with that view).
import { defineStrings } from '../../i18n/i18n';

export const timelineStrings = defineStrings('timeline', {
  en: {
    title: 'Protection, last 30 days',
    summary:
      'Each mark is a backup; a gap longer than the backup target ({{target}}) is drawn in the warning colour; drills are marked ✓ PASS, ✗ FAIL or ? UNVERIFIED.',
    generation: 'Backup of {{date}} in “{{repo}}”',
    gap: 'No backup in “{{repo}}” for {{duration}}, from {{from}} to {{to}} (the target is {{target}})',
    drill: 'Drill of {{date}}: {{verdict}}',
    drills: 'Drills',
    none: 'No backup in the last 30 days.',
    loading: 'Reading the repositories…',
    focusHint: 'Tab to the timeline, then use the arrow keys to go from mark to mark and read each.',
    verdict_PASS: 'PASS',
    verdict_FAIL: 'FAIL',
    verdict_UNVERIFIED: 'UNVERIFIED',
    today: 'today',
    daysAgo: '{{days}} days ago',
  },
  ar: {
    title: 'الحماية في آخر 30 يومًا',
    summary: 'كل علامة نسخة احتياطية؛ والفجوة الأطول من هدف النسخ ({{target}}) مرسومة بلون التحذير؛ والتدريبات معلّمة ✓ ناجح أو ✗ فاشل أو ? غير مؤكَّد.',
    generation: 'نسخة {{date}} في «{{repo}}»',
    gap: 'لا نسخة في «{{repo}}» مدة {{duration}}، من {{from}} إلى {{to}} (الهدف {{target}})',
    drill: 'تدريب {{date}}: {{verdict}}',
    drills: 'التدريبات',
    none: 'لا نسخة في آخر 30 يومًا.',
    loading: 'جارٍ قراءة المستودعات…',
    focusHint: 'انتقل إلى الخط الزمني بمفتاح الجدولة، ثم تنقّل بالأسهم من علامة إلى أخرى لتقرأ كلًّا منها.',
    verdict_PASS: 'ناجح',
    verdict_FAIL: 'فاشل',
    verdict_UNVERIFIED: 'غير مؤكَّد',
    today: 'اليوم',
    daysAgo: 'قبل {{days}} يومًا',
  },
});
