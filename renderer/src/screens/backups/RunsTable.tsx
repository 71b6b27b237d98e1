// The recent backup runs, newest first, each with its result per repository (the snapshot it made
// or the error). A run Sanad was stopped in the middle of is settled at the next start and shows
// as "Interrupted"; a row still "running" while no backup runs (data copied mid-run and not yet
// served) says it did not finish instead of spinning forever.
import { ErrorNote } from '../../components/ErrorNote';
import { formatDateTime } from '../../i18n/format';
import { useStrings } from '../../i18n/i18n';
import { useBackupRuns, type BackupCopy } from './api';
import { shortId } from './GenerationsTable';
import { runStrings } from './strings';
import { isolate } from '../bidi';

const TRIGGERS = { manual: 'manual', schedule: 'schedule', 'catch-up': 'catchUp', first: 'first', cli: 'cli' } as const;
const isTrigger = (s: string): s is keyof typeof TRIGGERS => Object.hasOwn(TRIGGERS, s);

export type RunStatusKey = 'ok' | 'partial' | 'failed' | 'interrupted' | 'running' | 'unfinished';

/** What a run's status means now: "running" is only true while a backup really runs. */
export function runStatus(status: string, backupRunning: boolean, newest: boolean): RunStatusKey {
  if (status === 'ok' || status === 'partial' || status === 'failed' || status === 'interrupted') return status;
  return backupRunning && newest ? 'running' : 'unfinished';
}

const CLASS: Record<RunStatusKey, string> = { ok: 'badge ok', partial: 'badge warn', failed: 'badge fail', interrupted: 'badge warn', running: 'badge', unfinished: 'badge warn' };

export function RunBadge({ status }: { status: RunStatusKey }) {
  const { t } = useStrings(runStrings);
  return <span className={CLASS[status]}>{t(status)}</span>;
}

export function CopyLine({ copy }: { copy: BackupCopy }) {
  const { t } = useStrings(runStrings);
  const ok = copy.ok === 1;
  return (
    <li className={ok ? 'ok' : 'fail'} data-repository={copy.repository} data-ok={ok}>
      {ok ? t('copyOk', { repo: isolate(copy.repository), id: isolate(shortId(copy.snapshot_id ?? '')) }) : t('copyFailed', { repo: isolate(copy.repository), error: copy.error ?? '' })}
    </li>
  );
}

export function RunsTable({ backupRunning }: { backupRunning: boolean }) {
  const { t, language } = useStrings(runStrings);
  const q = useBackupRuns();
  return (
    <section className="card" aria-labelledby="runs-title">
      <h2 id="runs-title">{t('title')}</h2>
      {q.error && <ErrorNote error={q.error} onRetry={() => void q.refetch()} />}
      <div className="table-wrap">
        <table data-testid="backup-runs">
          <thead>
            <tr>
              <th scope="col">{t('started')}</th>
              <th scope="col">{t('trigger')}</th>
              <th scope="col">{t('result')}</th>
              <th scope="col">{t('repositories')}</th>
            </tr>
          </thead>
          <tbody>
            {q.isPending && (
              <tr>
                <td colSpan={4}>
                  <span className="skeleton" />
                </td>
              </tr>
            )}
            {q.data?.data.length === 0 && (
              <tr>
                <td colSpan={4} className="muted">
                  {t('none')}
                </td>
              </tr>
            )}
            {q.data?.data.slice(0, 10).map((run, i) => (
              <tr key={run.id}>
                <td>{formatDateTime(language, run.started_at)}</td>
                <td>{isTrigger(run.trigger) ? t(TRIGGERS[run.trigger]) : run.trigger}</td>
                <td>
                  <RunBadge status={runStatus(run.status, backupRunning, i === 0)} />
                  {/* A known reason, worded in the chosen language; any other error is the server's sentence. */}
                  {run.status === 'interrupted' ? <div className="warn">{t('interruptedWhy')}</div> : run.error && <div className="fail">{run.error}</div>}
                </td>
                <td>
                  <ul className="plain-list">
                    {q.data.copies
                      .filter((c) => c.run_id === run.id)
                      .map((c) => (
                        <CopyLine key={c.repository} copy={c} />
                      ))}
                  </ul>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
