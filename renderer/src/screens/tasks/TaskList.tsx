// The task list: one page of 50 at a time by cursor (it stays fast with 100,000 tasks: the server
// walks an index, the page never loads more), filtered by status and model. The view (filters and
// page) is kept while the user opens a task and comes back.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../../api/http';
import { href } from '../../app/routes';
import { ErrorNote } from '../../components/ErrorNote';
import { formatDateTime, formatNumber } from '../../i18n/format';
import { useStrings } from '../../i18n/i18n';
import { currentCursor, firstView, listQuery, nextPage, previousPage, withFilter, type ListView } from './paging';
import { useModels } from './api';
import { TASK_STATUSES, TaskPage, TaskStatus, TERMINAL } from './api';
import { StatusBadge } from './StatusBadge';
import { taskStrings } from './strings';
import { Verbatim } from '../../components/Verbatim';

let remembered: ListView = firstView;

// No admin event reports task changes, so a page that shows a task still moving is read again
// every 3 s until everything on it has ended; a page of finished tasks is not polled.
const MOVING_REFRESH_MS = 3_000;

export function TaskList() {
  const { t, language } = useStrings(taskStrings);
  const [view, setViewState] = useState(remembered);
  const setView = (next: ListView) => {
    remembered = next;
    setViewState(next);
  };
  const models = useModels();
  const page = useQuery({
    queryKey: ['tasks', 'list', view.status, view.model, currentCursor(view)],
    queryFn: () => api('GET', `/v1/tasks?${listQuery(view)}`, TaskPage),
    placeholderData: keepPreviousData,
    staleTime: 0,
    refetchInterval: (q) => (q.state.data?.data.some((task) => !TERMINAL.includes(task.status)) ? MOVING_REFRESH_MS : false),
  });
  const rows = page.data?.data ?? [];
  return (
    <section aria-labelledby="tasks-list-title">
      <h2 id="tasks-list-title">{t('listLabel')}</h2>
      <div className="row task-filters">
        <label>
          {t('filterStatus')}{' '}
          <select
            data-testid="tasks-filter-status"
            value={view.status ?? ''}
            onChange={(e) => {
              const parsed = TaskStatus.safeParse(e.target.value);
              setView(withFilter(view, { status: parsed.success ? parsed.data : null }));
            }}
          >
            <option value="">{t('any')}</option>
            {TASK_STATUSES.map((s) => (
              <option key={s} value={s}>
                {t(`status_${s}`)}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t('filterModel')}{' '}
          <select
            data-testid="tasks-filter-model"
            value={view.model ?? ''}
            onChange={(e) => setView(withFilter(view, { model: e.target.value === '' ? null : e.target.value }))}
          >
            <option value="">{t('any')}</option>
            {(models.data?.data ?? []).map((m) => (
              <option key={m.id} value={m.id} translate="no">
                {m.id}
              </option>
            ))}
          </select>
        </label>
        <button type="button" onClick={() => void page.refetch()}>
          {t('refresh')}
        </button>
      </div>
      {page.isError && <ErrorNote error={page.error} onRetry={() => void page.refetch()} />}
      <table className="task-table" aria-busy={page.isFetching} data-testid="task-table">
        <thead>
          <tr>
            <th scope="col">{t('prompt')}</th>
            <th scope="col">{t('model')}</th>
            <th scope="col">{t('status')}</th>
            <th scope="col">{t('created')}</th>
          </tr>
        </thead>
        <tbody>
          {page.isPending &&
            Array.from({ length: 8 }, (_, i) => (
              <tr key={i} aria-hidden="true">
                <td colSpan={4}>
                  <span className="skeleton" />
                </td>
              </tr>
            ))}
          {rows.map((task) => (
            <tr key={task.id} data-testid="task-row" data-status={task.status}>
              <td>
                {/* The prompt's first line names the task; a task without one (a stored prompt of only
                    tool output) shows its id. */}
                <a href={href('tasks', task.id)} data-testid="task-link">
                  {task.prompt ? <Verbatim className="task-prompt-line">{task.prompt}</Verbatim> : <code>{task.id}</code>}
                </a>
              </td>
              <td>
                <Verbatim>{task.model}</Verbatim>
              </td>
              <td>
                <StatusBadge status={task.status} />
              </td>
              <td>{formatDateTime(language, task.created_at)}</td>
            </tr>
          ))}
          {page.isSuccess && rows.length === 0 && (
            <tr>
              <td colSpan={4} className="muted">
                {t('none')}
              </td>
            </tr>
          )}
        </tbody>
      </table>
      <div className="row task-paging">
        <button type="button" disabled={view.cursors.length === 0} onClick={() => setView(previousPage(view))}>
          {t('previous')}
        </button>
        <span className="muted" data-testid="tasks-page">
          {t('pageN', { n: formatNumber(language, view.cursors.length + 1) })}
        </span>
        <button type="button" disabled={!page.data?.has_more || page.isPlaceholderData} onClick={() => setView(nextPage(view, rows.at(-1)?.id))}>
          {t('next')}
        </button>
      </div>
    </section>
  );
}
