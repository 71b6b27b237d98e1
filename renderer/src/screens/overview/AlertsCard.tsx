// Open (unresolved) alerts, newest first, each marked by severity in colour and in words. The
// message is the server's own sentence, except for alerts the GUI words itself in the chosen
// language (the server's sentence, with its paths, stays in the item's title).
import { ErrorNote } from '../../components/ErrorNote';
import { formatNumber, formatRelative } from '../../i18n/format';
import { useStrings } from '../../i18n/i18n';
import { useAlerts } from './queries';
import type { Alert } from './schemas';
import { SkeletonLines } from './Skeleton';
import { overviewStrings } from './strings';

const TONE = { critical: 'fail', warning: 'warn', info: 'muted' } as const;
const WORDED = { 'disk.full': 'alert_disk_full', 'disk.low': 'alert_disk_low', 'secrets.keychain_unavailable': 'alert_keychain_unavailable' } as const;

function wordedKey(key: string): (typeof WORDED)[keyof typeof WORDED] | null {
  return key === 'disk.full' || key === 'disk.low' || key === 'secrets.keychain_unavailable' ? WORDED[key] : null;
}

/** Unresolved alerts, the most recently seen first. */
export function openAlertsNewestFirst(alerts: readonly Alert[]): Alert[] {
  return alerts.filter((a) => a.resolved_at === null).sort((a, b) => b.last_seen - a.last_seen || b.first_seen - a.first_seen);
}

export function AlertsCard({ nowS }: { nowS: number }) {
  const { t, language } = useStrings(overviewStrings);
  const alerts = useAlerts();
  const open = alerts.data ? openAlertsNewestFirst(alerts.data.data) : [];
  const message = (a: Alert): string => {
    const worded = wordedKey(a.key);
    return worded === null ? a.message : t(worded);
  };
  return (
    <section className="card overview-card" aria-labelledby="overview-alerts">
      <h2 id="overview-alerts">{t('alerts')}</h2>
      {alerts.isPending && <SkeletonLines lines={3} />}
      {alerts.isError && <ErrorNote error={alerts.error} onRetry={() => void alerts.refetch()} />}
      {alerts.data && open.length === 0 && <p className="muted">{t('noAlerts')}</p>}
      {open.length > 0 && (
        <ul className="alert-list" data-testid="overview-alerts">
          {open.map((a) => (
            <li key={a.key} className={`alert-item alert-${a.severity}`} title={a.message}>
              <span className={`badge ${TONE[a.severity]}`}>{t(`severity_${a.severity}`)}</span>{' '}
              <span>{message(a)}</span>
              <div className="muted small">
                {formatRelative(language, a.last_seen, nowS * 1000)}
                {a.count > 1 && <> · {t('times', { count: formatNumber(language, a.count) })}</>}
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
