// Which native notifications to show: one per alert while it stays open, never one per retry.
// An alert is identified by its key and `first_seen`: a retry that fails again only bumps
// `last_seen`/`count` (alerts.ts), so it stays the same alert and stays quiet; an alert that was
// resolved and raised again gets a new `first_seen` (or vanished from the open list in between),
// so it is news and notifies again.
// The record of what was shown is persisted (desktop-state.ts): "one per alert" means one per
// alert, not one per launch; with "start at login" a still-open alert would otherwise pop up at
// every login. The tray keeps showing the state meanwhile.
// `held` keys are not shown yet and not recorded: the shell itself interrupted a backup (sleep,
// Quit), so the `backup.failed` that follows is its own doing until the retry answers.
import type { Alert, ShownAlert } from '../../src/store/alerts.js';
import { isQuiet } from '../../src/contract/alerts.js';
import { BACKUP_FAILED, DISK_FULL_ALERT, KEYCHAIN_ALERT, DRILL_FAILED, DRILL_UNVERIFIED, OFFSITE_COPY_FAILED, OFFSITE_FAILED_PREFIX } from './alert-keys.js';
import { TRAY_WORDS, type TrayWords } from './tray-text.js';

export interface Notice {
  /** Stable per occurrence: `<alert key>@<first_seen>` or `restore:<id>`. */
  id: string;
  title: string;
  body: string;
  urgency: 'normal' | 'critical';
}

/** alert key → the `first_seen` of the occurrence already notified. */
export type NotifiedAlerts = Record<string, number>;

const BODY_MAX = 240;
const short = (s: string): string => (s.length > BODY_MAX ? `${s.slice(0, BODY_MAX - 1)}…` : s);

/** The notification for an alert, or null for alerts that only show in the tray. */
export function noticeForAlert(alert: Pick<Alert, 'key' | 'message' | 'first_seen'>, words: TrayWords = TRAY_WORDS.en): Notice | null {
  const N = words.notice;
  const id = `${alert.key}@${alert.first_seen}`;
  const body = short(N.alertBody(alert.message));
  if (alert.key === BACKUP_FAILED) return { id, title: N.backupFailed, body, urgency: 'critical' };
  if (alert.key === DRILL_FAILED) return { id, title: N.drillFailed, body, urgency: 'critical' };
  if (alert.key === DRILL_UNVERIFIED) return { id, title: N.drillUnverified, body, urgency: 'normal' };
  if (alert.key === DISK_FULL_ALERT) return { id, title: N.diskFull, body, urgency: 'critical' };
  if (alert.key === KEYCHAIN_ALERT) return { id, title: N.keychainDown, body, urgency: 'critical' };
  if (alert.key === OFFSITE_COPY_FAILED) return { id, title: N.offsiteCopyFailed, body, urgency: 'normal' };
  if (alert.key.startsWith(OFFSITE_FAILED_PREFIX))
    return { id, title: N.offsiteFailed(alert.key.slice(OFFSITE_FAILED_PREFIX.length)), body, urgency: 'normal' };
  return null;
}

export interface AlertPlan {
  show: Notice[];
  /** The record to keep (and persist): only alerts still open, so a re-raise is news. */
  notified: NotifiedAlerts;
}

type NoticeAlert = Pick<Alert, 'key' | 'message' | 'first_seen'> & Partial<Pick<ShownAlert, 'accepted_at' | 'snoozed_until'>>;

export function planAlertNotices(
  notified: NotifiedAlerts,
  open: ReadonlyArray<NoticeAlert>,
  held: ReadonlySet<string> = new Set(),
  words: TrayWords = TRAY_WORDS.en,
): AlertPlan {
  const next: NotifiedAlerts = {};
  const show: Notice[] = [];
  for (const alert of open) {
    const notice = noticeForAlert(alert, words);
    if (notice === null) continue;
    if (notified[alert.key] === alert.first_seen) {
      next[alert.key] = alert.first_seen;
      continue;
    }
    // Accepted or snoozed: not shown, and not recorded either, so a snooze that ends while the
    // alert is still open notifies then.
    if (held.has(alert.key) || isQuiet({ accepted_at: alert.accepted_at ?? null, snoozed_until: alert.snoozed_until ?? null })) continue;
    show.push(notice);
    next[alert.key] = alert.first_seen;
  }
  return { show, notified: next };
}

export function sameNotified(a: NotifiedAlerts, b: NotifiedAlerts): boolean {
  const ka = Object.keys(a);
  return ka.length === Object.keys(b).length && ka.every((k) => a[k] === b[k]);
}

/** The data of a `restore.finished` admin event (restore-jobs.ts finish()). */
export interface RestoreFinished {
  id: string;
  ok: boolean;
  target: string;
  error: string | null;
}

export function parseRestoreFinished(data: Record<string, unknown>): RestoreFinished | null {
  const { id, ok, target, error } = data;
  // The restore's run id (a number since runs are one record).
  if (typeof id !== 'number' || typeof ok !== 'boolean' || typeof target !== 'string') return null;
  return { id: String(id), ok, target, error: typeof error === 'string' ? error : null };
}

/** Restores are one-off events: one notice per restore id, remembered for this launch only
 *  (restore jobs themselves live in memory and end with the process). */
export class RestoreNotices {
  private readonly seen = new Set<string>();

  notice(event: RestoreFinished, words: TrayWords = TRAY_WORDS.en): Notice | null {
    if (this.seen.has(event.id)) return null;
    this.seen.add(event.id);
    const N = words.notice;
    return event.ok
      ? { id: `restore:${event.id}`, title: N.restoreOk, body: short(N.restoreOkBody(event.target)), urgency: 'normal' }
      : { id: `restore:${event.id}`, title: N.restoreFailed, body: short(N.restoreFailedBody(event.error)), urgency: 'critical' };
  }
}
