// The Drills screen: run a daily or deep drill now and follow it check by check (its open run's
// progress, api/open-runs.ts), see when the next ones are planned, and read the history: each drill's
// verdict, with every check's result one click away. The drill just started opens by itself when
// it ends. Everything refreshes on `drill.finished`; nothing polls.
import type { z } from 'zod/v3';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError, api } from '../api/http';
import { ErrorNote } from '../components/ErrorNote';
import { ProgressBar } from '../components/ProgressBar';
import { formatDateTime, formatNumber, formatRelative } from '../i18n/format';
import { RunTable } from '../components/RunTable';
import { useStrings } from '../i18n/i18n';
import { CancelRun } from '../components/CancelRun';
import { DrillStarted, useDrillHistory, useDrillStatus, type DrillRun, type DrillStatus } from './drills/api';
import { checkLabel, checkStrings, parseCheckName } from './drills/check-names';
import { DrillChecklist, VerdictBadge } from './drills/DrillChecklist';
import { drillProgressValue } from './drills/progress';
import './recovery.css';
import { OPEN_RUNS_KEY, useOpenRun } from '../api/open-runs';
import { drillStrings } from './drills/strings';
import type { StartDrillRequest } from '../../../src/contract/admin-requests';

/** As many as the history query reads (drills/api.ts). */
const HISTORY = 30;

function RunNow({ status, onStarted }: { status: DrillStatus | undefined; onStarted: (id: number) => void }) {
  const { t, language } = useStrings(drillStrings);
  const names = useStrings(checkStrings).t;
  const client = useQueryClient();
  const run = useOpenRun('drill');
  const start = useMutation({
    mutationFn: (deep: boolean) => api('POST', '/admin/drills', DrillStarted, { deep } satisfies z.input<typeof StartDrillRequest>),
    onSuccess: (res) => {
      onStarted(res.id);
      void client.invalidateQueries({ queryKey: ['drills'] });
    },
    onSettled: () => void client.invalidateQueries({ queryKey: OPEN_RUNS_KEY }),
  });
  const running = run !== null;
  const busy = start.error instanceof ApiError && start.error.status === 409;
  const waiting = (run?.waiting_for.length ?? 0) > 0;
  const describe = (check: string, index: number, total: number) =>
    t('checking', { n: formatNumber(language, index), total: formatNumber(language, total), check: checkLabel(parseCheckName(check), names) });
  const value = drillProgressValue(run?.progress, describe) ?? { fraction: null };
  const last = (label: string, s: DrillStatus['last']['daily']) => (
    <p className="row">
      <span>{label}:</span>
      {s ? (
        <>
          <VerdictBadge verdict={s.verdict} />
          <span className="muted">{formatRelative(language, s.finished_at ?? s.started_at)}</span>
        </>
      ) : (
        <span className="muted">{t('none')}</span>
      )}
    </p>
  );
  return (
    <section className="card" aria-labelledby="drill-now-title">
      <h2 id="drill-now-title" className="visually-hidden">
        {t('progress')}
      </h2>
      <p className="muted">{t('intro')}</p>
      <div className="row">
        <button type="button" className="primary" data-testid="drill-daily" disabled={running || start.isPending} onClick={() => start.mutate(false)}>
          {start.isPending && start.variables === false ? t('starting') : t('runDaily')}
        </button>
        <button type="button" data-testid="drill-deep" disabled={running || start.isPending} onClick={() => start.mutate(true)}>
          {start.isPending && start.variables === true ? t('starting') : t('runDeep')}
        </button>
        <CancelRun run={run} label={t('cancelDrill')} />
      </div>
      {busy && !running && <p className="warn">{t('busy')}</p>}
      {waiting && (
        <p className="muted" data-testid="drill-waiting">
          {t('waitingBackup')}
        </p>
      )}
      {start.error && !busy && <ErrorNote error={start.error} />}
      <div className="progress-slot" aria-live="polite">
        {running && (
          <div data-testid="drill-progress">
            <ProgressBar label={t('progress')} value={value} />
          </div>
        )}
      </div>
      {status ? (
        <>
          {last(t('lastDaily'), status.last.daily)}
          {last(t('lastDeep'), status.last.deep)}
          {status.paused ? (
            <p className="warn">{t('paused')}</p>
          ) : (
            <>
              {status.next_drill_at !== null && <p className="muted">{t('nextDaily', { date: formatDateTime(language, status.next_drill_at) })}</p>}
              {status.next_deep_at !== null && <p className="muted">{t('nextDeep', { date: formatDateTime(language, status.next_deep_at) })}</p>}
            </>
          )}
        </>
      ) : (
        <>
          <span className="skeleton" />
          <span className="skeleton" />
        </>
      )}
    </section>
  );
}

/** A drill's own column in the run table: its depth, verdict and counts, the checklist one click away. */
function DrillCell({ drill, open, onToggle }: { drill: DrillRun | undefined; open: boolean; onToggle: (open: boolean) => void }) {
  const { t, language } = useStrings(drillStrings);
  if (!drill) return null;
  const count = (s: 'pass' | 'fail' | 'unverified') => formatNumber(language, drill.checks.filter((c) => c.status === s).length);
  return (
    <details open={open} onToggle={(e) => onToggle(e.currentTarget.open)}>
      <summary>
        <span className="row">
          <VerdictBadge verdict={drill.verdict} />
          <strong>{drill.kind === 'deep' ? t('deep') : t('daily')}</strong>
          {drill.repo !== null && <span className="muted">{t('onlyRepo', { repo: drill.repo })}</span>}
          {drill.checks.length > 0 && (
            <span className="muted">{t('counts', { pass: count('pass'), fail: count('fail'), unverified: count('unverified') })}</span>
          )}
        </span>
      </summary>
      <DrillChecklist checks={drill.checks} />
    </details>
  );
}

export function DrillsScreen(_props: { id: string | null }) {
  const { t } = useStrings(drillStrings);
  const status = useDrillStatus();
  const drillRunning = useOpenRun('drill') !== null;
  const history = useDrillHistory();
  // The drill's details by run id; the run table lists the same newest runs.
  const drills = new Map((history.data ?? []).map((d) => [d.id, d]));
  const [open, setOpen] = useState<ReadonlySet<number>>(new Set());
  const toggle = (id: number, isOpen: boolean) =>
    setOpen((prev) => {
      if (prev.has(id) === isOpen) return prev;
      const next = new Set(prev);
      if (isOpen) next.add(id);
      else next.delete(id);
      return next;
    });
  return (
    <div className="recovery-screen">
      <h1>{t('title')}</h1>
      {status.error && <ErrorNote error={status.error} onRetry={() => void status.refetch()} />}
      <RunNow status={status.data} onStarted={(id) => toggle(id, true)} />
      <RunTable
        kind="drill"
        title={t('history')}
        empty={t('empty')}
        testId="drill-history"
        limit={HISTORY}
        openNow={drillRunning}
        explain={(run) => (run.status === 'interrupted' ? t('interrupted') : null)}
        rowData={(run) => ({ 'data-testid': `drill-${run.id}`, 'data-verdict': drills.get(run.id)?.verdict ?? '' })}
        details={{ header: t('verdict'), cell: (run) => <DrillCell drill={drills.get(run.id)} open={open.has(run.id)} onToggle={(o) => toggle(run.id, o)} /> }}
      />
    </div>
  );
}
