// The recent backup runs, newest first, each with its result per repository (the snapshot it made
// or the error). A row still "running" while no backup runs was cut short (the process stopped,
// or this is restored data copied mid-run): it says so instead of spinning forever.
import { ErrorNote } from '../../components/ErrorNote';
import { formatDateTime } from '../../i18n/format';
import { defineStrings, useStrings } from '../../i18n/i18n';
import { useBackupRuns, type BackupCopy } from './api';
import { shortId } from './GenerationsTable';

const ns = defineStrings('backups-runs', {
  en: {
    title: 'Recent runs',
    started: 'Started',
    trigger: 'Trigger',
    result: 'Result',
    repositories: 'Repositories',
    manual: 'now, from the GUI or API',
    schedule: 'scheduled',
    catchUp: 'catch-up after a missed slot',
    first: 'the first backup',
    cli: 'command line',
    ok: 'OK',
    partial: 'Partly failed',
    failed: 'Failed',
    running: 'Running',
    unfinished: 'Did not finish',
    none: 'No backup has run yet.',
    copyOk: '{{repo}}: snapshot {{id}}',
    copyFailed: '{{repo}}: {{error}}',
  },
  ar: {
    title: 'آخر العمليات',
    started: 'البدء',
    trigger: 'المُشغِّل',
    result: 'النتيجة',
    repositories: 'المستودعات',
    manual: 'فوري من الواجهة أو الواجهة البرمجية',
    schedule: 'مجدول',
    catchUp: 'تعويض موعد فائت',
    first: 'أول نسخة احتياطية',
    cli: 'سطر الأوامر',
    ok: 'سليم',
    partial: 'فشل جزئي',
    failed: 'فشل',
    running: 'قيد التشغيل',
    unfinished: 'لم تكتمل',
    none: 'لم يُجرَ أي نسخ احتياطي بعد.',
    copyOk: '{{repo}}: اللقطة {{id}}',
    copyFailed: '{{repo}}: {{error}}',
  },
});

const TRIGGERS = { manual: 'manual', schedule: 'schedule', 'catch-up': 'catchUp', first: 'first', cli: 'cli' } as const;
const isTrigger = (s: string): s is keyof typeof TRIGGERS => Object.hasOwn(TRIGGERS, s);

export type RunStatusKey = 'ok' | 'partial' | 'failed' | 'running' | 'unfinished';

/** What a run's status means now: "running" is only true while a backup really runs. */
export function runStatus(status: string, backupRunning: boolean, newest: boolean): RunStatusKey {
  if (status === 'ok' || status === 'partial' || status === 'failed') return status;
  return backupRunning && newest ? 'running' : 'unfinished';
}

const CLASS: Record<RunStatusKey, string> = { ok: 'badge ok', partial: 'badge warn', failed: 'badge fail', running: 'badge', unfinished: 'badge warn' };

export function RunBadge({ status }: { status: RunStatusKey }) {
  const { t } = useStrings(ns);
  return <span className={CLASS[status]}>{t(status)}</span>;
}

export function CopyLine({ copy }: { copy: BackupCopy }) {
  const { t } = useStrings(ns);
  const ok = copy.ok === true || copy.ok === 1;
  return (
    <li className={ok ? 'ok' : 'fail'} data-repository={copy.repository} data-ok={ok}>
      {ok ? t('copyOk', { repo: copy.repository, id: shortId(copy.snapshot_id ?? '') }) : t('copyFailed', { repo: copy.repository, error: copy.error ?? '' })}
    </li>
  );
}

export function RunsTable({ backupRunning }: { backupRunning: boolean }) {
  const { t, language } = useStrings(ns);
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
                  {run.error && <div className="fail">{run.error}</div>}
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
