// The Overview: one glance tells whether the data is safe. The verdict line sums up the cards
// below it (backups against their target, the last drill, open alerts, the recovery kit, the
// service). Every part keeps its space while loading, so nothing moves when data arrives.
import { useStrings } from '../i18n/i18n';
import { href } from '../app/routes';
import { AlertsCard } from './overview/AlertsCard';
import { BackupsCard } from './overview/BackupsCard';
import { DrillCard } from './overview/DrillCard';
import { FirstRunChecklist } from './overview/FirstRunChecklist';
import { useAdminStatus, useAlerts, useBackupStatus, useDrillStatus } from './overview/api';
import { RunningNow } from './overview/RunningNow';
import { ServiceCard } from './overview/ServiceCard';
import { overviewStrings } from './overview/strings';
import { useNowSeconds } from './overview/use-now';
import { overallVerdict, type Verdict } from './overview/verdict';
import { VerdictLine } from './overview/VerdictLine';
import { ProtectionTimeline } from './history/ProtectionTimeline';
import './overview.css';

function KitWarning() {
  const { t } = useStrings(overviewStrings);
  return (
    <div className="card kit-warning" role="alert" data-testid="overview-kit-warning">
      <strong>{t('kitTitle')}</strong>
      <p>{t('kitBody')}</p>
      <a href={href('settings')}>{t('kitLink')}</a>
    </div>
  );
}

export function OverviewScreen(_props: { id: string | null }) {
  const { t } = useStrings(overviewStrings);
  const nowS = useNowSeconds();
  const status = useAdminStatus();
  const backups = useBackupStatus();
  const drills = useDrillStatus();
  const alerts = useAlerts();
  const failed = status.isError || backups.isError || drills.isError || alerts.isError;
  let verdict: Verdict | null = null;
  if (status.data && backups.data && drills.data && alerts.data) {
    verdict = overallVerdict({
      nowS,
      intervalHours: backups.data.interval_hours,
      backupsPaused: backups.data.paused,
      repositories: backups.data.repositories,
      drills: drills.data.last,
      drillsPaused: drills.data.paused,
      alerts: alerts.data.data,
      recoveryKitConfirmed: status.data.secrets.recovery_kit_confirmed_at !== null,
    });
  }
  return (
    <>
      <h1>{t('title')}</h1>
      <VerdictLine verdict={verdict} failed={failed} nowS={nowS} />
      <RunningNow />
      <FirstRunChecklist />
      {status.data?.secrets.recovery_kit_confirmed_at === null && <KitWarning />}
      <ProtectionTimeline />
      <div className="grid overview-grid">
        <BackupsCard nowS={nowS} />
        <DrillCard nowS={nowS} />
        <AlertsCard nowS={nowS} />
        <ServiceCard />
      </div>
    </>
  );
}
