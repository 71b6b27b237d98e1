// Every English string the tray and the native notifications show, in one table, so wording is
// reviewed (and one day translated) in one place. The GUI has its own i18n; the tray is small.
export type TrayState = 'healthy' | 'running' | 'warning' | 'failing';

export const TRAY_TEXT = {
  title: { healthy: 'Sanad: backups are healthy', running: 'Sanad: backing up', warning: 'Sanad: backups need attention', failing: 'Sanad: backups are failing' },
  reason: {
    backingUp: (percent: number | null) => (percent === null ? 'Backing up (preparing)…' : `Backing up… ${percent}%`),
    backupFailed: 'The last backup failed',
    drillFailed: 'A drill found damage in the backups (FAIL)',
    noBackup: 'No backup has completed yet',
    stale: (ageH: number, targetH: number) => `The last good backup is ${ageH} h old (target ${targetH} h)`,
    interrupted: 'The last backup was interrupted (sleep or Quit); it runs again',
    drillUnverified: 'The last drill could not verify the backups (UNVERIFIED)',
    kitNotConfirmed: 'The recovery kit is not confirmed as stored safely',
    offsiteFailing: (names: readonly string[]) => `Offsite backup failing: ${names.join(', ')}`,
    otherAlerts: (n: number) => (n === 1 ? '1 other alert' : `${n} other alerts`),
    paused: 'Scheduled backups are paused',
    diskFull: 'The disk holding Sanad\'s data is full: free some space',
    diskLow: 'The disk holding Sanad\'s data is nearly full',
    keychainDown: 'The OS keychain is not answering: backups wait for it',
    secretsInFile: 'Your keys are in a file, not in the OS keychain (sanad secrets move-to-keychain)',
  },
  menu: {
    open: 'Open Sanad',
    backupNow: 'Back up now',
    drill: 'Run a drill',
    pause: 'Pause backups',
    openAtLogin: 'Start at login',
    quit: 'Quit Sanad',
  },
  lastBackup: (ago: string | null) => (ago === null ? 'Last good backup: none yet' : `Last good backup: ${ago}`),
  lastDrill: (verdict: string | null, kind: string, ago: string | null) =>
    verdict === null || ago === null ? 'Last drill: none yet' : `Last drill: ${verdict} (${kind}), ${ago}`,
  notice: {
    backupFailed: 'Backup failed',
    offsiteFailed: (name: string) => `Offsite backup to ${name} is failing`,
    offsiteCopyFailed: 'The offsite copy is failing',
    drillFailed: 'Drill FAIL: the backups are damaged',
    drillUnverified: 'Drill UNVERIFIED: the backups could not be checked',
    diskFull: 'The disk is full',
    keychainDown: 'The OS keychain is not answering',
    restoreOk: 'Restore finished',
    restoreFailed: 'Restore failed',
    restoreOkBody: (target: string) => `The data was restored and verified in ${target}.`,
    restoreFailedBody: (error: string) => `${error} Open Sanad to try again.`,
  },
} as const;

/** "just now", "12 min ago", "5 h ago", "3 days ago": coarse on purpose, it is a glance. */
export function ago(seconds: number): string {
  if (seconds < 60) return 'just now';
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ago`;
  if (seconds < 2 * 86_400) return `${Math.floor(seconds / 3600)} h ago`;
  return `${Math.floor(seconds / 86_400)} days ago`;
}
