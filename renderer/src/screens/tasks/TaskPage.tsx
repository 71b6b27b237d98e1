// One task: its state, model, times and error from GET /v1/tasks/{id}; the generated text (and a
// reasoning model's thinking, apart from it) and the event list live from its SSE stream; and Cancel, enabled only while the task can be cancelled.
// The state shown is always the API's: each state-changing event re-reads the task, and the cancel
// answer (cancelled, or cancelling until the worker stops) replaces it at once.
import { failureWords } from './failure-words';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, ApiError } from '../../api/http';
import { href } from '../../app/routes';
import { ErrorNote } from '../../components/ErrorNote';
import { formatDateTime, formatDuration, formatNumber } from '../../i18n/format';
import { useStrings } from '../../i18n/i18n';
import { taskKey, useTask } from './api';
import { CANCELLABLE, Task, TERMINAL } from './api';
import { StatusBadge } from './StatusBadge';
import { taskStrings } from './strings';
import type { StreamState } from './task-stream';
import { useTaskEvents, type StreamConnection } from './use-task-events';
import { Verbatim } from '../../components/Verbatim';

/** A prompt's first non-empty line, for the heading. */
function firstLine(prompt: string): string {
  return (
    prompt
      .split('\n')
      .find((l) => l.trim() !== '')
      ?.trim() ?? prompt
  );
}

const CONNECTION_KEY = { connecting: 'streamConnecting', open: 'streamOpen', closed: 'streamClosed' } as const;

function EventList({ stream }: { stream: StreamState }) {
  const { t, language } = useStrings(taskStrings);
  const newestFirst = [...stream.events].reverse();
  return (
    <section aria-labelledby="task-events-title">
      {/* The raw event log is for the curious: behind a toggle, under the text it makes. */}
      <details className="task-events-details" data-testid="task-events-toggle">
        <summary>
          <h2 id="task-events-title">{t('events')}</h2>
        </summary>
        {stream.total > stream.events.length && (
          <p className="muted">{t('eventsShown', { shown: formatNumber(language, stream.events.length), total: formatNumber(language, stream.total) })}</p>
        )}
        <div className="task-events-wrap" tabIndex={0} role="region" aria-labelledby="task-events-title">
          <table className="task-events" data-testid="task-events">
            <thead>
              <tr>
                <th scope="col">{t('seq')}</th>
                <th scope="col">{t('type')}</th>
                <th scope="col">{t('time')}</th>
                <th scope="col">{t('detail')}</th>
              </tr>
            </thead>
            <tbody>
              {newestFirst.map((e) => (
                <tr key={e.seq}>
                  <td>{formatNumber(language, e.seq)}</td>
                  <td>
                    <code>{e.type}</code>
                  </td>
                  <td>{e.at === null ? '' : formatDateTime(language, e.at)}</td>
                  <td>{e.detail === null ? '' : <code>{JSON.stringify(e.detail)}</code>}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </section>
  );
}

/** The tokens generated, and over how long once generation began: "42 tokens in 3 seconds". */
function Tokens({ task }: { task: Task }) {
  const { t, language } = useStrings(taskStrings);
  const count = task.output_tokens ?? 0;
  const began = task.generation_started_at ?? null;
  if (began === null) return <>{formatNumber(language, count)}</>;
  const seconds = Math.max(0, task.updated_at - began);
  const words =
    seconds >= 1
      ? t('tokensIn', { count, n: formatNumber(language, count), duration: formatDuration(language, seconds) })
      : t('tokensQuick', { count, n: formatNumber(language, count) });
  // A rate over a second or two of unix-second timestamps is mostly rounding: shown from 2 s on.
  return (
    <span data-testid="task-tokens">
      {words}
      {seconds >= 2 && count > 0 && (
        <span className="muted"> · {t('rate', { rate: formatNumber(language, count / seconds, { maximumFractionDigits: 1 }) })}</span>
      )}
    </span>
  );
}

function Facts({ task }: { task: Task }) {
  const { t, language } = useStrings(taskStrings);
  const terminal = TERMINAL.includes(task.status);
  return (
    <dl className="task-facts">
      <dt>{t('state')}</dt>
      <dd>
        <StatusBadge status={task.status} testId="task-status" />
      </dd>
      <dt>{t('model')}</dt>
      <dd>
        <Verbatim>{task.model}</Verbatim>
      </dd>
      <dt>{t('created')}</dt>
      <dd>{formatDateTime(language, task.created_at)}</dd>
      {task.generation_started_at != null && (
        <>
          <dt>{t('started')}</dt>
          <dd>{formatDateTime(language, task.generation_started_at)}</dd>
        </>
      )}
      <dt>{terminal ? t('finished') : t('updated')}</dt>
      <dd>{formatDateTime(language, task.updated_at)}</dd>
      {/* Counted when generation ends: nothing is shown while it runs or after a cancel. */}
      {task.output_tokens != null && (
        <>
          <dt>{t('tokens')}</dt>
          <dd>
            <Tokens task={task} />
          </dd>
        </>
      )}
      <dt>{t('taskId')}</dt>
      <dd>
        <code data-testid="task-id">{task.id}</code>
      </dd>
      <dt>{t('onRestart')}</dt>
      <dd>{t(`restart_${task.on_restart}`)}</dd>
      {task.error && (
        <>
          <dt>{t('error')}</dt>
          <dd className="fail" data-testid="task-error">
            {failureWords(task.error, language, t)} <code>({task.error.code})</code>
          </dd>
        </>
      )}
    </dl>
  );
}

function StreamState({ connection, ended }: { connection: StreamConnection; ended: boolean }) {
  const { t } = useStrings(taskStrings);
  // A stream that closed because the task ended is the normal end, not a warning.
  const tone = connection === 'open' ? 'on' : connection === 'closed' && ended ? 'done' : 'off';
  return (
    <span className={`live ${tone}`} data-testid="task-stream-state" data-tone={tone}>
      {t(CONNECTION_KEY[connection])}
    </span>
  );
}

export function TaskPage({ id }: { id: string }) {
  const { t } = useStrings(taskStrings);
  const client = useQueryClient();
  const task = useTask(id);
  const { stream, connection } = useTaskEvents(id, () => void client.invalidateQueries({ queryKey: taskKey(id) }));
  const cancel = useMutation({
    mutationFn: () => api('POST', `/v1/tasks/${encodeURIComponent(id)}/cancel`, Task),
    onSuccess: (answer) => {
      client.setQueryData(taskKey(id), answer);
      void client.invalidateQueries({ queryKey: ['tasks', 'list'] });
    },
  });
  const notFound = task.error instanceof ApiError && task.error.status === 404;
  const cancellable = task.data !== undefined && CANCELLABLE.includes(task.data.status);
  return (
    <>
      <p>
        <a href={href('tasks')}>{t('back')}</a>
      </p>
      {/* The task is named by what was asked: the prompt's first line (the whole prompt is below). */}
      <h1 className="task-title" data-testid="task-title">
        {task.data?.prompt ? <Verbatim className="task-prompt-line">{firstLine(task.data.prompt)}</Verbatim> : t('taskTitle')}
      </h1>
      {notFound && <p className="fail">{t('notFound', { id })}</p>}
      {task.isError && !notFound && <ErrorNote error={task.error} onRetry={() => void task.refetch()} />}
      <div className="card task-head">
        {task.isPending && (
          <div aria-hidden="true">
            {Array.from({ length: 5 }, (_, i) => (
              <span key={i} className="skeleton" />
            ))}
          </div>
        )}
        {task.data && <Facts task={task.data} />}
        <div className="row">
          {/* A finished task has nothing to cancel: no greyed button left behind. */}
          {(cancellable || cancel.isPending) && (
            <button type="button" className="danger" data-testid="task-cancel" disabled={cancel.isPending} onClick={() => cancel.mutate()}>
              {cancel.isPending ? t('cancelling') : t('cancel')}
            </button>
          )}
        </div>
        {cancel.isError && <ErrorNote error={cancel.error} />}
      </div>
      {task.data?.prompt !== undefined && (
        <section className="card task-prompt-card" aria-labelledby="task-prompt-title">
          <h2 id="task-prompt-title">{t('prompt')}</h2>
          {task.data.prompt === '' ? (
            <p className="muted">{t('promptEmpty')}</p>
          ) : (
            <pre className="task-text task-prompt" data-testid="task-prompt" dir="auto" translate="no">
              {task.data.prompt}
            </pre>
          )}
        </section>
      )}
      {!notFound && stream.thought !== null && (
        <section className="card" aria-labelledby="task-reasoning-title">
          <h2 id="task-reasoning-title">{t('reasoning')}</h2>
          <p className="muted">{t('reasoningHint')}</p>
          <pre className="task-text task-reasoning" data-testid="task-reasoning" data-done={stream.thought.done} dir="auto">
            {stream.thought.text}
          </pre>
        </section>
      )}
      {!notFound && (
        <section className="card" aria-labelledby="task-output-title">
          <div className="row task-output-head">
            <h2 id="task-output-title">{t('output')}</h2>
            <StreamState connection={connection} ended={stream.ended} />
          </div>
          <pre className="task-text" data-testid="task-text" data-ended={stream.ended}>
            {stream.text}
          </pre>
          {stream.text === '' && <p className="muted">{stream.ended ? t('outputNone') : t('outputEmpty')}</p>}
        </section>
      )}
      {!notFound && <EventList stream={stream} />}
    </>
  );
}
