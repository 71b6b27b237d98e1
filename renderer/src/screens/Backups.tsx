// The Backups screen: "Back up now" with restic's real progress (the open run's, api/open-runs.ts),
// the last run's result per repository, the schedule and the retention policy (both changed on
// the Settings screen), each repository's generations, the recent runs and the maintenance log.
// Everything refreshes on `backup.finished`; nothing polls.
import { Said } from '../said/Said';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, api } from '../api/http';
import { href } from '../app/routes';
import { ErrorNote } from '../components/ErrorNote';
import { ProgressBar } from '../components/ProgressBar';
import { formatDateTime, formatNumber, formatRelative, formatTimeOfDay } from '../i18n/format';
import { useStrings } from '../i18n/i18n';
import { BackupStarted } from '../../../src/contract/backups';
import { SettingsSchema } from '../../../src/contract/settings';
import { useBackupRuns, useBackupStatus, type BackupStatus } from './backups/api';
import { GenerationsTable } from './backups/GenerationsTable';
import { MaintenanceLog } from './backups/MaintenanceLog';
import { backupProgressValue, progressStrings } from './backups/progress';
import { RunBadge, runStatus } from '../components/RunTable';
import { CopyLine, RunsTable } from './backups/RunsTable';
import { CopyToOffsite } from './backups/CopyToOffsite';
import './recovery.css';
import { OPEN_RUNS_KEY, useOpenRun } from '../api/open-runs';
import { backupStrings } from './backups/strings';
import { lazy, Suspense } from 'react';
import { parseGenerationRef } from './history/generation-ref';
import { ProtectionTimeline } from './history/ProtectionTimeline';
import { Verbatim } from '../components/Verbatim';
import { CancelRun } from '../components/CancelRun';

// Looking inside a generation is rare and its screen is large: it loads when first opened.
const GenerationView = lazy(() => import('./history/GenerationView').then((m) => ({ default: m.GenerationView })));

/** The retention policy as set (Settings): the same entry the Settings screen saves refreshes it. */
const useRetention = () => useQuery({ queryKey: ['settings', 'backups-screen'], queryFn: () => api('GET', '/admin/settings', SettingsSchema) });

function BackupNow({ status }: { status: BackupStatus | undefined }) {
  const { t, language } = useStrings(backupStrings);
  const tp = useStrings(progressStrings).t;
  const client = useQueryClient();
  const run = useOpenRun('backup');
  const maintenance = useOpenRun('maintenance');
  const runs = useBackupRuns();
  const start = useMutation({
    mutationFn: () => api('POST', '/admin/backups', BackupStarted),
    onSettled: () => void client.invalidateQueries({ queryKey: OPEN_RUNS_KEY }),
  });
  const running = run !== null || maintenance !== null;
  // Already running (another window, the schedule): the answer attaches to that run, shown here.
  const busy = start.data?.attached === true || (start.error instanceof ApiError && start.error.status === 409);
  const waiting = run?.waiting_for ?? [];
  const value = backupProgressValue(run?.progress, tp) ?? { fraction: null, step: tp('working') };
  const last = runs.data?.data[0];
  return (
    <section className="card" aria-labelledby="backup-now-title">
      <div className="row spread">
        <h2 id="backup-now-title">{t('lastRun')}</h2>
        <span className="row">
          <CancelRun run={run ?? maintenance} label={t('cancelBackup')} />
          <button type="button" className="primary" data-testid="backup-now" disabled={running || start.isPending} onClick={() => start.mutate()}>
            {start.isPending ? t('starting') : t('now')}
          </button>
        </span>
      </div>
      {busy && !running && <p className="warn">{t('alreadyRunning')}</p>}
      {waiting.length > 0 && (
        <p className="muted" data-testid="backup-waiting">
          {t(waiting.includes('restore') ? 'waitingRestore' : 'waitingMaintenance')}
        </p>
      )}
      {start.error && !busy && <ErrorNote error={start.error} />}
      <div className="progress-slot" aria-live="polite">
        {running && (
          <div data-testid="backup-progress">
            <ProgressBar label={t('progress')} value={value} />
          </div>
        )}
      </div>
      {runs.isPending ? (
        <span className="skeleton" />
      ) : last ? (
        <div data-testid="last-run" data-status={last.status}>
          <div className="row">
            <RunBadge status={runStatus(last, running)} />
            <span>{formatDateTime(language, last.finished_at ?? last.started_at)}</span>
          </div>
          <ul className="plain-list">
            {runs.data?.copies
              .filter((c) => c.run_id === last.id)
              .map((c) => (
                <CopyLine key={c.repository} copy={c} />
              ))}
          </ul>
        </div>
      ) : (
        <p className="muted">{t('never')}</p>
      )}
      {status?.last_ok_at != null && <p className="muted">{t('lastOk', { when: formatRelative(language, status.last_ok_at) })}</p>}
      {status?.held_by != null && !status.paused ? (
        <p className="warn" data-testid="backup-held">
          {t(status.held_by === 'battery' ? 'heldBattery' : 'heldMetered')}
        </p>
      ) : (
        status?.next_run_at != null && !status.paused && <p className="muted">{t('nextRun', { date: formatDateTime(language, status.next_run_at) })}</p>
      )}
      {status && <CopyToOffsite status={status} running={running} />}
    </section>
  );
}

function Schedule({ status }: { status: BackupStatus | undefined }) {
  const { t, language } = useStrings(backupStrings);
  const kept = useRetention().data;
  const n = (v: number) => formatNumber(language, v);
  const holds =
    kept === undefined
      ? null
      : kept.backup_skip_on_battery
        ? kept.backup_skip_on_metered
          ? t('holdsBoth')
          : t('holdsBattery')
        : kept.backup_skip_on_metered
          ? t('holdsMetered')
          : null;
  return (
    <section className="card" aria-labelledby="schedule-title">
      <h2 id="schedule-title">{t('schedule')}</h2>
      {status ? (
        <>
          <p>
            <strong data-testid="backups-schedule">
              {status.time_of_day !== null
                ? t('daily', { time: formatTimeOfDay(language, status.time_of_day) })
                : t('every', { interval: formatNumber(language, status.interval_hours, { style: 'unit', unit: 'hour', unitDisplay: 'long' }) })}
            </strong>{' '}
            — {status.paused ? <span className="warn">{t('paused')}</span> : t('active')}
          </p>
          {holds !== null && (
            <p className="muted" data-testid="backups-holds">
              {holds}
            </p>
          )}
          <p>
            <a href={href('settings')}>{t('change')}</a>
          </p>
        </>
      ) : (
        <span className="skeleton" />
      )}
      {kept && (
        <p className="muted" data-testid="backups-retention">
          {t('retention', {
            hourly: n(kept.retention_keep_hourly),
            daily: n(kept.retention_keep_daily),
            weekly: n(kept.retention_keep_weekly),
            monthly: n(kept.retention_keep_monthly),
          })}
        </p>
      )}
    </section>
  );
}

export function BackupsScreen({ id }: { id: string | null }) {
  const inside = id === null ? null : parseGenerationRef(id);
  if (inside) {
    return (
      <Suspense
        fallback={
          <div className="card">
            <span className="skeleton" />
          </div>
        }
      >
        <GenerationView repo={inside.repo} generation={inside.generation} />
      </Suspense>
    );
  }
  return <BackupsOverview />;
}

function BackupsOverview() {
  const { t, language } = useStrings(backupStrings);
  const status = useBackupStatus();
  const backupRunning = useOpenRun('backup') !== null;
  return (
    <div className="recovery-screen">
      <h1>{t('title')}</h1>
      {status.error && <ErrorNote error={status.error} onRetry={() => void status.refetch()} />}
      <div className="backups-top">
        <BackupNow status={status.data} />
        <Schedule status={status.data} />
      </div>
      <ProtectionTimeline />
      <h2>{t('repositories')}</h2>
      {status.isPending && (
        <div className="card">
          <span className="skeleton" />
          <span className="skeleton" />
        </div>
      )}
      {status.data?.repositories.map((repo) => (
        <section key={repo.name} className="card" aria-label={repo.name}>
          <div className="row spread">
            <h3>
              <Verbatim>{repo.name}</Verbatim>{' '}
              <span className="muted">
                (<Verbatim>{repo.type}</Verbatim>)
              </span>
            </h3>
            <span className="row">
              {!repo.enabled && <span className="badge">{t('disabled')}</span>}
              {repo.failing && <span className="badge fail">{t('failing')}</span>}
              <span className="muted">{repo.last_ok_at === null ? t('noCopy') : t('lastCopy', { when: formatRelative(language, repo.last_ok_at) })}</span>
            </span>
          </div>
          <p className="muted">
            <bdi dir="ltr" className="mono">
              {repo.location}
            </bdi>
          </p>
          {repo.failing && repo.last_error && <p className="fail">{repo.last_error_said ? <Said said={repo.last_error_said} /> : repo.last_error}</p>}
          <GenerationsTable repo={repo.name} />
        </section>
      ))}
      <RunsTable backupRunning={backupRunning} />
      <MaintenanceLog />
    </div>
  );
}
