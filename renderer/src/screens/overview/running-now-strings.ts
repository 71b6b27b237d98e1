// The words of the Overview's "Working now" card (RunningNow.tsx), English and Arabic.
import { defineStrings } from '../../i18n/i18n';

export const runningNowStrings = defineStrings('overview-running-now', {
  en: {
    title: 'Working now',
    kind_backup: 'Backup',
    kind_maintenance: 'Checking and tidying the backups',
    'kind_offsite-copy': 'Copy to offsite',
    kind_drill: 'Restore drill',
    kind_restore: 'Restore',
    kind_pull: 'Model download',
    running: 'running',
    runningPercent: 'running, {{percent}} done',
    waiting: 'waiting for the work before it to finish',
    cancelOne: 'Cancel: {{what}}',
  },
  ar: {
    title: 'قيد العمل الآن',
    kind_backup: 'نسخ احتياطي',
    kind_maintenance: 'فحص النسخ الاحتياطية وترتيبها',
    'kind_offsite-copy': 'نسخ إلى موقع خارجي',
    kind_drill: 'تمرين استعادة',
    kind_restore: 'استعادة',
    kind_pull: 'تنزيل نموذج',
    running: 'يعمل',
    runningPercent: 'يعمل، أُنجز {{percent}}',
    waiting: 'ينتظر انتهاء العمل الذي قبله',
    cancelOne: 'إلغاء: {{what}}',
  },
});
