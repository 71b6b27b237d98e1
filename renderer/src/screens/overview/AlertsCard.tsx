// Open (unresolved) alerts, newest first, each marked by severity in colour and in words. The
// GUI heads the alerts it knows by their key with a short sentence, and the server's saying (which
// names the cause: a path, an error) under it, in the reader's language (said/Said.tsx).
// A warning can be accepted (known and deliberate: it stays listed, marked "Accepted", and no longer
// makes the verdict say "Needs attention"); any alert can be snoozed (no notification, and a
// warning is not counted, until then); both can be undone.
import type { ReactNode } from 'react';
import { ErrorNote } from '../../components/ErrorNote';
import { Said } from '../../said/Said';
import { formatDateTime, formatNumber, formatRelative } from '../../i18n/format';
import { useStrings } from '../../i18n/i18n';
import { useAcknowledgeAlert, useAlerts } from './api';
import type { Alert } from './api';
import { SkeletonLines } from './Skeleton';
import { overviewStrings } from './strings';

const TONE = { critical: 'fail', warning: 'warn', info: 'muted' } as const;
const WORDED_KEYS = {
  'disk.full': 'alert_disk_full',
  'disk.low': 'alert_disk_low',
  'secrets.keychain_unavailable': 'alert_keychain_unavailable',
  'secrets.in_file': 'alert_secrets_in_file',
  'backup.failed': 'alert_backup_failed',
  'backup.offsite_copy_failed': 'alert_offsite_copy_failed',
  'backup.offsite_prune_failed': 'alert_offsite_prune_failed',
  'drill.failed': 'alert_drill_failed',
  'drill.unverified': 'alert_drill_unverified',
} as const;
type Worded = (typeof WORDED_KEYS)[keyof typeof WORDED_KEYS];
const WORDED: ReadonlyMap<string, Worded> = new Map(Object.entries(WORDED_KEYS));

/** The GUI's own sentence for an alert it knows by its key (an offsite target's carries its name). */
function worded(key: string): { text: Worded | 'alert_offsite_failed'; name?: string } | null {
  if (key.startsWith('backup.offsite_failed:')) return { text: 'alert_offsite_failed', name: key.slice('backup.offsite_failed:'.length) };
  const text = WORDED.get(key);
  return text === undefined ? null : { text };
}

/** A sentence with `commands` in backticks: the commands as code, never raw backticks. */
export function withCode(text: string): ReactNode[] {
  return text.split('`').map((part, i) =>
    i % 2 === 1 ? (
      <code key={i} dir="ltr">
        {part}
      </code>
    ) : (
      part
    ),
  );
}

/** Unresolved alerts, the most recently seen first. */
export function openAlertsNewestFirst(alerts: readonly Alert[]): Alert[] {
  return alerts.filter((a) => a.resolved_at === null).sort((a, b) => b.last_seen - a.last_seen || b.first_seen - a.first_seen);
}

export function AlertsCard({ nowS }: { nowS: number }) {
  const { t, language } = useStrings(overviewStrings);
  const alerts = useAlerts();
  const ack = useAcknowledgeAlert();
  const open = alerts.data ? openAlertsNewestFirst(alerts.data.data) : [];
  const headline = (a: Alert): string | null => {
    const w = worded(a.key);
    return w === null ? null : t(w.text, { name: w.name ?? '' });
  };
  return (
    <section className="card overview-card" aria-labelledby="overview-alerts">
      <h2 id="overview-alerts">{t('alerts')}</h2>
      {alerts.isPending && <SkeletonLines lines={3} />}
      {alerts.isError && <ErrorNote error={alerts.error} onRetry={() => void alerts.refetch()} />}
      {alerts.data && open.length === 0 && <p className="muted">{t('noAlerts')}</p>}
      {ack.isError && (
        <p className="error-note" role="alert">
          {t('ackFailed', { error: ack.error.message })}
        </p>
      )}
      {open.length > 0 && (
        <ul className="alert-list" data-testid="overview-alerts">
          {open.map((a) => (
            <li key={a.key} className={`alert-item alert-${a.severity}`} data-alert={a.key}>
              <span className={`badge ${TONE[a.severity]}`}>{t(`severity_${a.severity}`)}</span>{' '}
              {a.accepted_at !== null && <span className="badge muted">{t('acceptedBadge')}</span>}{' '}
              {headline(a) === null ? (
                <span>
                  <Said said={{ ...a, detail: a.message }} />
                </span>
              ) : (
                <>
                  <span>{withCode(headline(a) ?? '')}</span>
                  <div className="muted small alert-cause">
                    <Said said={{ ...a, detail: a.message }} />
                  </div>
                </>
              )}
              <div className="muted small">
                {formatRelative(language, a.last_seen, nowS * 1000)}
                {a.count > 1 && <> · {t('times', { count: formatNumber(language, a.count) })}</>}
                {a.snoozed_until !== null && <> · {t('snoozedUntil', { when: formatDateTime(language, a.snoozed_until) })}</>}
              </div>
              <div className="alert-actions">
                {a.accepted_at !== null || a.snoozed_until !== null ? (
                  <button
                    type="button"
                    className="small-button"
                    disabled={ack.isPending}
                    onClick={() => ack.mutate({ key: a.key, request: { action: 'clear' } })}
                  >
                    {t('undoAck')}
                  </button>
                ) : (
                  <>
                    {a.severity !== 'critical' && (
                      <button
                        type="button"
                        className="small-button"
                        title={t('acceptHint')}
                        disabled={ack.isPending}
                        onClick={() => ack.mutate({ key: a.key, request: { action: 'accept' } })}
                      >
                        {t('accept')}
                      </button>
                    )}
                    <button
                      type="button"
                      className="small-button"
                      disabled={ack.isPending}
                      onClick={() => ack.mutate({ key: a.key, request: { action: 'snooze', hours: 24 } })}
                    >
                      {t('snoozeDay')}
                    </button>
                    <button
                      type="button"
                      className="small-button"
                      disabled={ack.isPending}
                      onClick={() => ack.mutate({ key: a.key, request: { action: 'snooze', hours: 7 * 24 } })}
                    >
                      {t('snoozeWeek')}
                    </button>
                  </>
                )}
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
