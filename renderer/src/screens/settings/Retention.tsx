// The backup retention policy, read-only: it is fixed in src/backup/maintenance.ts (24 hourly,
// 30 daily, 8 weekly, 12 monthly) and no setting exposes it.
import { formatNumber } from '../../i18n/format';
import { useStrings } from '../../i18n/i18n';
import { settingsStrings } from './strings';

export const RETENTION = { hourly: 24, daily: 30, weekly: 8, monthly: 12 } as const;

export function Retention() {
  const { t, language } = useStrings(settingsStrings);
  const n = (v: number) => formatNumber(language, v);
  return (
    <section className="card" aria-labelledby="settings-retention">
      <h2 id="settings-retention">{t('retention')}</h2>
      <p data-testid="settings-retention">
        {t('retentionText', { hourly: n(RETENTION.hourly), daily: n(RETENTION.daily), weekly: n(RETENTION.weekly), monthly: n(RETENTION.monthly) })}
      </p>
      <p className="muted small">{t('retentionFixed')}</p>
    </section>
  );
}
