// The restore running (its open run's progress, api/open-runs.ts; the job itself, refetched when
// `restore.finished` arrives, gives the end) and its end: the checklist of what was verified, and
// for a verified restore "Open the restored data": a confirmation, the server's switch, a wait for
// the restarted service, then the new login link on this page's own origin.
import { useMutation } from '@tanstack/react-query';
import { useEffect, useRef, type Dispatch } from 'react';
import { z } from 'zod/v3';
import { api } from '../../api/http';
import { useErrorText } from '../../components/ErrorNote';
import { ProgressBar } from '../../components/ProgressBar';
import { CancelRun } from '../../components/CancelRun';
import { useStrings } from '../../i18n/i18n';
import { useOpenRuns } from '../../api/open-runs';
import { openRestored, outcomeOf, useRestoreJob, useServiceStatus } from './api';
import { restoreCheckLabel, restoreCheckStrings } from './check-names';
import { failedChecks, type FlowAction, type FlowState } from './flow';
import { restoreProgressStrings, restoreProgressValue } from './progress';
import { RestoreChecklist } from './RestoreChecklist';
import { RestoreSummary } from './RestoreSummary';
import { Said } from '../../said/Said';
import { isolate } from '../bidi';
import { restoreStrings } from './strings';
import { loginPath, probe, waitForRestart } from './wait-for-restart';

interface Props {
  state: FlowState;
  dispatch: Dispatch<FlowAction>;
}

export function RunningStep({ state, dispatch }: Props) {
  const { t } = useStrings(restoreStrings);
  const tp = useStrings(restoreProgressStrings).t;
  const open = useOpenRuns();
  const job = useRestoreJob(state.jobId);
  useEffect(() => {
    const outcome = job.data ? outcomeOf(job.data) : null;
    if (job.data && outcome) dispatch({ type: 'finished', id: job.data.id, outcome });
  }, [job.data, dispatch]);
  // Only this restore's run (another window may have started another); a restore's id is its run's.
  const run = open.data?.find((r) => r.id === state.jobId) ?? null;
  const value = restoreProgressValue(run?.progress ?? job.data?.progress, tp) ?? { fraction: null, step: t('starting') };
  return (
    <div data-testid="restore-progress">
      <ProgressBar label={t('progress')} value={value} />
      <CancelRun run={run} label={t('cancelRestore')} />
    </div>
  );
}

function OpenRestored({ state, dispatch }: Props) {
  const { t } = useStrings(restoreStrings);
  const errorText = useErrorText();
  // The dialog opens on its harmless choice: Enter or Space right away cancels, never switches.
  const cancelRef = useRef<HTMLButtonElement>(null);
  const status = useServiceStatus();
  const open = useMutation({
    mutationFn: (id: number) => openRestored(id),
    onSuccess: (res) => dispatch({ type: 'openAccepted', loginUrl: res.login_url, dataDir: res.data_dir }),
    onError: (error) => dispatch({ type: 'openFailed', message: errorText(error) }),
  });
  const o = state.open;
  useEffect(() => {
    if (o.status === 'confirming') cancelRef.current?.focus();
  }, [o.status]);
  useEffect(() => {
    if (o.status !== 'waiting') return;
    const abort = new AbortController();
    void waitForRestart(() => probe(() => api('GET', '/admin/status', z.unknown())), { signal: abort.signal }).then((back) => {
      if (abort.signal.aborted) return;
      if (back) window.location.assign(loginPath(o.loginUrl));
      else dispatch({ type: 'openFailed', message: t('timedOut', { link: `${window.location.origin}${loginPath(o.loginUrl)}` }) });
    });
    return () => abort.abort();
    // Only on entering "waiting": the link is fixed from then on, and t/dispatch must not restart the wait.
  }, [o.status]);
  if (state.outcome?.ok !== true || state.jobId === null) return null;
  const jobId = state.jobId;
  return (
    <div className="open-restored">
      {(o.status === 'idle' || o.status === 'failed') && (
        <button type="button" className="primary" data-testid="restore-open" onClick={() => dispatch({ type: 'openRequested' })}>
          {t('open')}
        </button>
      )}
      {o.status === 'failed' && (
        <p className="error-note" role="alert">
          <span dir="auto">{o.message}</span>
        </p>
      )}
      {o.status === 'confirming' && (
        <div className="card confirm" role="alertdialog" aria-labelledby="open-title" aria-describedby="open-text" data-testid="open-confirm">
          <h3 id="open-title">{t('openTitle')}</h3>
          <p id="open-text">{t('openText', { current: isolate(status.data?.service.data_dir ?? '…'), target: isolate(state.outcome.target) })}</p>
          <div className="row">
            <button type="button" ref={cancelRef} onClick={() => dispatch({ type: 'openCancelled' })}>
              {t('cancel')}
            </button>
            <button
              type="button"
              className="danger"
              data-testid="open-confirm-button"
              onClick={() => {
                dispatch({ type: 'openConfirmed' });
                open.mutate(jobId);
              }}
            >
              {t('openConfirm')}
            </button>
          </div>
        </div>
      )}
      {o.status === 'requesting' && <p role="status">{t('opening')}</p>}
      {o.status === 'waiting' && (
        <div role="status" data-testid="open-waiting">
          <p>{t('waiting', { dir: isolate(o.dataDir) })}</p>
          <progress aria-label={t('waiting', { dir: isolate(o.dataDir) })} />
        </div>
      )}
    </div>
  );
}

export function DoneStep({ state, dispatch }: Props) {
  const { t } = useStrings(restoreStrings);
  const names = useStrings(restoreCheckStrings).t;
  const outcome = state.outcome;
  if (!outcome) return null;
  const failed = failedChecks(outcome)[0];
  return (
    <section aria-labelledby="restore-result" data-testid="restore-result" data-ok={outcome.ok} data-restore-id={state.jobId ?? ''}>
      <h2 id="restore-result" className={outcome.ok ? 'ok' : 'fail'}>
        {outcome.ok ? t('succeeded') : t('failed')}
      </h2>
      {!outcome.ok && <p>{failed ? t('failedAt', { check: restoreCheckLabel(failed.name, names) }) : t('failedUnknown')}</p>}
      {!outcome.ok && (failed !== undefined || outcome.error) && (
        <p className="fail" dir="auto">
          {failed !== undefined ? <Said said={failed} /> : outcome.error}
        </p>
      )}
      {outcome.ok && <RestoreSummary outcome={outcome} />}
      {outcome.ok ? (
        <details className="restore-details" data-testid="restore-details">
          <summary>{t('details')}</summary>
          <RestoreChecklist checks={outcome.checks} />
        </details>
      ) : (
        <RestoreChecklist checks={outcome.checks} />
      )}
      <OpenRestored state={state} dispatch={dispatch} />
      {state.open.status !== 'waiting' && state.open.status !== 'requesting' && (
        <p>
          <button type="button" onClick={() => dispatch({ type: 'reset' })}>
            {outcome.ok ? t('again') : t('retry')}
          </button>
        </p>
      )}
    </section>
  );
}
