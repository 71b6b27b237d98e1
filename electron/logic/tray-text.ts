// Every sentence the tray and the native notifications show, one table per language, so wording is
// reviewed in one place. The language is the one the person chose in the GUI (the `language`
// setting), else the system's. Arabic counts take their plural form from Intl.PluralRules and ages
// come from Intl.RelativeTimeFormat, so "2 hours ago" is "قبل ساعتين", not "قبل 2 ساعة".
export type TrayState = 'healthy' | 'running' | 'warning' | 'failing';
export type TrayLanguage = 'en' | 'ar';

export interface TrayWords {
  title: Record<TrayState, string>;
  reason: {
    backingUp(percent: number | null): string;
    backupFailed: string;
    drillFailed: string;
    noBackup: string;
    stale(ageH: number, targetH: number): string;
    interrupted: string;
    drillUnverified: string;
    kitNotConfirmed: string;
    offsiteFailing(names: readonly string[]): string;
    otherAlerts(n: number): string;
    paused: string;
    diskFull: string;
    diskLow: string;
    keychainDown: string;
    secretsInFile: string;
  };
  menu: { open: string; backupNow: string; drill: string; pause: string; openAtLogin: string; quit: string };
  lastBackup(ago: string | null): string;
  lastDrill(verdict: string | null, kind: 'daily' | 'deep', ago: string | null): string;
  notice: {
    backupFailed: string;
    offsiteFailed(name: string): string;
    offsiteCopyFailed: string;
    drillFailed: string;
    drillUnverified: string;
    diskFull: string;
    keychainDown: string;
    restoreOk: string;
    restoreFailed: string;
    restoreOkBody(target: string): string;
    restoreFailedBody(error: string | null): string;
    /** The body under an alert's title: the core's sentence where it is in the reader's language. */
    alertBody(message: string): string;
  };
  /** A newer Sanad, downloaded and verified: the menu item that installs it, and the one notice. */
  update: { restart(version: string): string; readyTitle(version: string): string; readyBody: string };
  /** "12 min ago": coarse on purpose, it is a glance. */
  ago(seconds: number): string;
}

/** A name or path inside Arabic text, kept whole and left-to-right (Unicode first-strong isolate). */
export const isolate = (s: string): string => `\u2068${s}\u2069`;

const EN: TrayWords = {
  title: {
    healthy: 'Sanad: backups are healthy',
    running: 'Sanad: backing up',
    warning: 'Sanad: backups need attention',
    failing: 'Sanad: backups are failing',
  },
  reason: {
    backingUp: (percent) => (percent === null ? 'Backing up (preparing)…' : `Backing up… ${percent}%`),
    backupFailed: 'The last backup failed',
    drillFailed: 'A drill found damage in the backups (FAIL)',
    noBackup: 'No backup has completed yet',
    stale: (ageH, targetH) => `The last good backup is ${ageH} h old (target ${targetH} h)`,
    interrupted: 'The last backup was interrupted (sleep or Quit); it runs again',
    drillUnverified: 'The last drill could not verify the backups (UNVERIFIED)',
    kitNotConfirmed: 'The recovery kit is not confirmed as stored safely',
    offsiteFailing: (names) => `Offsite backup failing: ${names.join(', ')}`,
    otherAlerts: (n) => (n === 1 ? '1 other alert' : `${n} other alerts`),
    paused: 'Scheduled backups are paused',
    diskFull: "The disk holding Sanad's data is full: free some space",
    diskLow: "The disk holding Sanad's data is nearly full",
    keychainDown: 'The OS keychain is not answering: backups wait for it',
    secretsInFile: 'Your keys are in a file, not in the OS keychain (sanad secrets move-to-keychain)',
  },
  menu: { open: 'Open Sanad', backupNow: 'Back up now', drill: 'Run a drill', pause: 'Pause backups', openAtLogin: 'Start at login', quit: 'Quit Sanad' },
  lastBackup: (ago) => (ago === null ? 'Last good backup: none yet' : `Last good backup: ${ago}`),
  lastDrill: (verdict, kind, ago) => (verdict === null || ago === null ? 'Last drill: none yet' : `Last drill: ${verdict} (${kind}), ${ago}`),
  notice: {
    backupFailed: 'Backup failed',
    offsiteFailed: (name) => `Offsite backup to ${name} is failing`,
    offsiteCopyFailed: 'The offsite copy is failing',
    drillFailed: 'Drill FAIL: the backups are damaged',
    drillUnverified: 'Drill UNVERIFIED: the backups could not be checked',
    diskFull: 'The disk is full',
    keychainDown: 'The OS keychain is not answering',
    restoreOk: 'Restore finished',
    restoreFailed: 'Restore failed',
    restoreOkBody: (target) => `The data was restored and verified in ${target}.`,
    restoreFailedBody: (error) => `${error ?? 'The restore did not complete.'} Open Sanad to try again.`,
    alertBody: (message) => message,
  },
  update: {
    restart: (version) => `Restart to update to ${version}`,
    readyTitle: (version) => `Sanad ${version} is ready`,
    readyBody: 'It was downloaded and verified. It installs when you choose Restart to update in the tray menu.',
  },
  ago: (seconds) => {
    if (seconds < 60) return 'just now';
    if (seconds < 3600) return `${Math.floor(seconds / 60)} min ago`;
    if (seconds < 2 * 86_400) return `${Math.floor(seconds / 3600)} h ago`;
    return `${Math.floor(seconds / 86_400)} days ago`;
  },
};

type PluralForms = Record<Intl.LDMLPluralRule, string>;
const arPlural = new Intl.PluralRules('ar');
const arNumber = new Intl.NumberFormat('ar');
/** The Arabic form for n ({n} is the number in Arabic's own formatting). */
const arCount = (n: number, forms: PluralForms): string => forms[arPlural.select(n)].replace('{n}', arNumber.format(n));
const AR_HOURS: PluralForms = { zero: '{n} ساعة', one: 'ساعة واحدة', two: 'ساعتان', few: '{n} ساعات', many: '{n} ساعة', other: '{n} ساعة' };
const AR_OTHER_ALERTS: PluralForms = {
  zero: 'لا تنبيهات أخرى',
  one: 'تنبيه آخر',
  two: 'تنبيهان آخران',
  few: '{n} تنبيهات أخرى',
  many: '{n} تنبيهًا آخر',
  other: '{n} تنبيه آخر',
};
const AR_VERDICT: Record<string, string> = { PASS: 'ناجح', FAIL: 'فاشل', UNVERIFIED: 'غير مؤكَّد' };
const AR_KIND = { daily: 'يومي', deep: 'معمَّق' } as const;
const arAgo = new Intl.RelativeTimeFormat('ar', { numeric: 'auto' });
/** Arabic script in a sentence: the core's English sentences are not shown to an Arabic reader. */
const ARABIC = /[\u0600-\u06ff]/;
const OPEN_FOR_DETAILS = 'افتح سند لمعرفة التفاصيل.';

const AR: TrayWords = {
  title: {
    healthy: 'سند: النسخ الاحتياطية سليمة',
    running: 'سند: يجري النسخ الاحتياطي',
    warning: 'سند: النسخ الاحتياطية تحتاج إلى انتباه',
    failing: 'سند: النسخ الاحتياطية تفشل',
  },
  reason: {
    backingUp: (percent) =>
      percent === null ? 'يجري النسخ الاحتياطي (التحضير)…' : `يجري النسخ الاحتياطي… ${new Intl.NumberFormat('ar', { style: 'percent' }).format(percent / 100)}`,
    backupFailed: 'فشلت آخر نسخة احتياطية',
    drillFailed: 'وجد اختبار استعادة تلفًا في النسخ الاحتياطية (فاشل)',
    noBackup: 'لم تكتمل أي نسخة احتياطية بعد',
    stale: (ageH, targetH) => `عمر آخر نسخة احتياطية سليمة ${arCount(ageH, AR_HOURS)} (الهدف ${arCount(targetH, AR_HOURS)})`,
    interrupted: 'انقطعت آخر نسخة احتياطية (سكون الجهاز أو الخروج)؛ ستُعاد',
    drillUnverified: 'لم يستطع آخر اختبار استعادة التحقق من النسخ الاحتياطية (غير مؤكَّد)',
    kitNotConfirmed: 'لم يُؤكَّد أن مجموعة الاسترداد محفوظة في مكان آمن',
    offsiteFailing: (names) => `النسخ الاحتياطي الخارجي يفشل: ${names.map(isolate).join('، ')}`,
    otherAlerts: (n) => arCount(n, AR_OTHER_ALERTS),
    paused: 'النسخ الاحتياطية المجدولة متوقفة مؤقتًا',
    diskFull: 'القرص الذي يحمل بيانات سند ممتلئ: أفرِغ بعض المساحة',
    diskLow: 'القرص الذي يحمل بيانات سند يكاد يمتلئ',
    keychainDown: 'سلسلة مفاتيح النظام لا تستجيب: النسخ الاحتياطية تنتظرها',
    secretsInFile: `مفاتيحك في ملف لا في سلسلة مفاتيح النظام (${isolate('sanad secrets move-to-keychain')})`,
  },
  menu: {
    open: 'افتح سند',
    backupNow: 'انسخ احتياطيًا الآن',
    drill: 'شغّل اختبار استعادة',
    pause: 'أوقف النسخ الاحتياطية مؤقتًا',
    openAtLogin: 'ابدأ عند تسجيل الدخول',
    quit: 'أغلق سند',
  },
  lastBackup: (ago) => (ago === null ? 'آخر نسخة احتياطية سليمة: لا شيء بعد' : `آخر نسخة احتياطية سليمة: ${ago}`),
  lastDrill: (verdict, kind, ago) =>
    verdict === null || ago === null ? 'آخر اختبار استعادة: لا شيء بعد' : `آخر اختبار استعادة: ${AR_VERDICT[verdict] ?? verdict} (${AR_KIND[kind]})، ${ago}`,
  notice: {
    backupFailed: 'فشل النسخ الاحتياطي',
    offsiteFailed: (name) => `النسخ الاحتياطي الخارجي إلى ${isolate(name)} يفشل`,
    offsiteCopyFailed: 'النسخة الخارجية تفشل',
    drillFailed: 'اختبار الاستعادة فاشل: النسخ الاحتياطية تالفة',
    drillUnverified: 'اختبار الاستعادة غير مؤكَّد: تعذّر التحقق من النسخ الاحتياطية',
    diskFull: 'القرص ممتلئ',
    keychainDown: 'سلسلة مفاتيح النظام لا تستجيب',
    restoreOk: 'انتهت الاستعادة',
    restoreFailed: 'فشلت الاستعادة',
    restoreOkBody: (target) => `استُعيدت البيانات وتُحقِّق منها في ${isolate(target)}.`,
    restoreFailedBody: () => 'لم تكتمل الاستعادة. افتح سند لمعرفة السبب وإعادة المحاولة.',
    alertBody: (message) => (ARABIC.test(message) ? message : OPEN_FOR_DETAILS),
  },
  update: {
    restart: (version) => `أعد التشغيل للتحديث إلى ${isolate(version)}`,
    readyTitle: (version) => `سند ${isolate(version)} جاهز`,
    readyBody: 'نُزِّل وتُحقِّق منه. يُثبَّت حين تختار «أعد التشغيل للتحديث» من قائمة الأيقونة.',
  },
  ago: (seconds) => {
    if (seconds < 60) return arAgo.format(0, 'second');
    if (seconds < 3600) return arAgo.format(-Math.floor(seconds / 60), 'minute');
    if (seconds < 2 * 86_400) return arAgo.format(-Math.floor(seconds / 3600), 'hour');
    return arAgo.format(-Math.floor(seconds / 86_400), 'day');
  },
};

export const TRAY_WORDS: Record<TrayLanguage, TrayWords> = { en: EN, ar: AR };

/** The tray's language: the person's choice in the GUI, else the system's (Arabic only when the
 *  system's locale is Arabic), else English. */
export function trayLanguage(chosen: string | null | undefined, systemLocale: string | undefined): TrayLanguage {
  if (chosen === 'en' || chosen === 'ar') return chosen;
  return systemLocale?.toLowerCase().startsWith('ar') ? 'ar' : 'en';
}
