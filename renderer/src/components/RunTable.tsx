// The one table of runs (GET /admin/runs?kind=…: the one record the server keeps of every backup,
// drill and restore), used by the Backups, Drills and Restore screens alike: when each started, who
// asked, its status in the one set of words, how long it took, and why it failed. What only one kind
// has (a backup's copies, a drill's checklist, a restore's folder) is the screen's own column.
// A row still open while nothing of its kind runs (data copied mid-run, not yet served) says it did
// not finish instead of spinning forever. Refreshed on `run.finished` (api/live-events.ts).
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { api } from '../api/http';
import { Runs, type Run, type RunKind } from '../../../src/contract/runs';
import { formatDateTime, formatDuration } from '../i18n/format';
import { defineStrings, useStrings } from '../i18n/i18n';
import { ErrorNote } from './ErrorNote';

export type { Run } from '../../../src/contract/runs';

const ns = defineStrings('runs', {
  en: {
    started: 'Started',
    trigger: 'Asked by',
    status: 'Status',
    took: 'Took',
    manual: 'now, from the GUI or API',
    api: 'now, from the GUI or API',
    gui: 'the GUI',
    schedule: 'the schedule',
    catchUp: 'catch-up after a missed slot',
    first: 'the first backup',
    cli: 'command line',
    queued: 'Waiting its turn',
    running: 'Running',
    ok: 'OK',
    partial: 'Partly failed',
    failed: 'Failed',
    interrupted: 'Interrupted (Sanad was stopped)',
    cancelled: 'Cancelled before it started',
    unfinished: 'Did not finish',
  },
  ar: {
    started: 'البدء',
    trigger: 'بطلب من',
    status: 'الحالة',
    took: 'المدة',
    manual: 'فوري من الواجهة أو الواجهة البرمجية',
    api: 'فوري من الواجهة أو الواجهة البرمجية',
    gui: 'الواجهة',
    schedule: 'الجدول',
    catchUp: 'تعويض موعد فائت',
    first: 'أول نسخة احتياطية',
    cli: 'سطر الأوامر',
    queued: 'ينتظر دوره',
    running: 'قيد التشغيل',
    ok: 'سليم',
    partial: 'فشل جزئي',
    failed: 'فشل',
    interrupted: 'انقطعت (توقّف سند)',
    cancelled: 'أُلغيت قبل أن تبدأ',
    unfinished: 'لم تكتمل',
  },
});

const TRIGGERS = { manual: 'manual', api: 'api', gui: 'gui', schedule: 'schedule', 'catch-up': 'catchUp', first: 'first', cli: 'cli' } as const;
const isTrigger = (s: string): s is keyof typeof TRIGGERS => Object.hasOwn(TRIGGERS, s);

export type RunStatusKey = Run['status'] | 'unfinished';

/** What a run's status means now: an open run is only open while one of its kind really runs. */
export function runStatus(run: Pick<Run, 'status'>, openNow: boolean): RunStatusKey {
  return (run.status === 'queued' || run.status === 'running') && !openNow ? 'unfinished' : run.status;
}

const CLASS: Record<RunStatusKey, string> = {
  queued: 'badge',
  running: 'badge',
  ok: 'badge ok',
  partial: 'badge warn',
  failed: 'badge fail',
  interrupted: 'badge warn',
  cancelled: 'badge',
  unfinished: 'badge warn',
};

export function RunBadge({ status }: { status: RunStatusKey }) {
  const { t } = useStrings(ns);
  return (
    <span className={CLASS[status]} data-status={status}>
      {t(status)}
    </span>
  );
}

export const useRuns = (kind: RunKind, limit: number) =>
  useQuery({ queryKey: ['runs', kind, limit], queryFn: () => api('GET', `/admin/runs?kind=${kind}&limit=${limit}`, Runs).then((l) => l.data) });

export interface RunTableProps {
  kind: RunKind;
  title: string;
  /** Said when there is no run of this kind yet. */
  empty: string;
  testId: string;
  /** Whether a run of this kind runs now (an open row otherwise did not finish). */
  openNow: boolean;
  limit?: number;
  /** The kind's own column: its header, and its cell for a run. */
  details?: { header: string; cell: (run: Run) => ReactNode };
  /** The reason under the status, when the screen words it itself (else the server's sentence). */
  explain?: (run: Run) => ReactNode;
  /** Attributes a screen's tests and styles find a row by. */
  rowData?: (run: Run) => Record<`data-${string}`, string>;
}

export function RunTable({ kind, title, empty, testId, openNow, limit = 10, details, explain, rowData }: RunTableProps) {
  const { t, language } = useStrings(ns);
  const q = useRuns(kind, limit);
  const columns = details ? 5 : 4;
  const titleId = `${testId}-title`;
  return (
    <section className="card" aria-labelledby={titleId}>
      <h2 id={titleId}>{title}</h2>
      {q.error && <ErrorNote error={q.error} onRetry={() => void q.refetch()} />}
      <div className="table-wrap">
        <table data-testid={testId}>
          <thead>
            <tr>
              <th scope="col">{t('started')}</th>
              <th scope="col">{t('trigger')}</th>
              <th scope="col">{t('status')}</th>
              <th scope="col">{t('took')}</th>
              {details && <th scope="col">{details.header}</th>}
            </tr>
          </thead>
          <tbody>
            {q.isPending && (
              <tr>
                <td colSpan={columns}>
                  <span className="skeleton" />
                </td>
              </tr>
            )}
            {q.data?.length === 0 && (
              <tr>
                <td colSpan={columns} className="muted">
                  {empty}
                </td>
              </tr>
            )}
            {q.data?.map((run) => {
              const status = runStatus(run, openNow);
              const why = explain?.(run) ?? run.error;
              return (
                <tr key={run.id} data-run-id={run.id} {...rowData?.(run)}>
                  <td>{formatDateTime(language, Math.floor(run.started_at / 1000))}</td>
                  <td>{isTrigger(run.trigger) ? t(TRIGGERS[run.trigger]) : run.trigger}</td>
                  <td>
                    <RunBadge status={status} />
                    {why && status !== 'ok' && <div className={status === 'failed' ? 'fail' : 'warn'}>{why}</div>}
                  </td>
                  <td>{run.ended_at === null ? '' : formatDuration(language, (run.ended_at - run.started_at) / 1000)}</td>
                  {details && <td>{details.cell(run)}</td>}
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </section>
  );
}
