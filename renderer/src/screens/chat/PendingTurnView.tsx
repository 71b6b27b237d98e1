// The turn being made: what the person sent, and the reply streaming in from the task's events
// (tasks/use-task-events.ts, which resumes after a reload or a dropped connection). The task's state
// says what to show while there is no text yet: waiting, loading the model (the task's `loading`
// state), thinking (a reasoning model's thought, folded), writing; and at the end what happened: completed (the stored items take its place),
// stopped or failed (said in words, with Retry and Dismiss).
import { useEffect, useRef } from 'react';
import { ApiError } from '../../api/http';
import { useStrings } from '../../i18n/i18n';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../api/http';
import { browserNow } from '../../clock';
import { Task, taskKey, TERMINAL } from '../tasks/api';
import { thoughtSeconds } from '../tasks/task-stream';
import { useTaskEvents } from '../tasks/use-task-events';
import { Markdown } from './Markdown';
import type { PendingTurn } from './pending-turn';
import { chatStrings, failureKey } from './strings';
import { measureReply, saveReplyStats, saveThoughtSeconds } from './reply-stats';
import { ThoughtBlock } from './ThoughtBlock';
import { z } from 'zod/v3';

/** Of a response, the ids of its output items (the reply's message among them). */
const AnswerIds = z.object({ output: z.array(z.object({ type: z.string(), id: z.string() }).passthrough()) }).passthrough();

export interface PendingTurnProps {
  turn: PendingTurn;
  model: string;
  /** The turn completed: its items are in the conversation now. */
  onCompleted: () => void;
  /** The task is gone (deleted, or a restored data dir that never had it). */
  onGone: () => void;
  onRetry: () => void;
  onDismiss: () => void;
  /** Told whenever the streamed text grows, so the list can keep the newest line in view. */
  onGrow: () => void;
  /** Told when the task has ended (or not): the composer offers Send again then, not Stop. */
  onEnded: (ended: boolean) => void;
}

export function PendingTurnView({ turn, model, onCompleted, onGone, onRetry, onDismiss, onGrow, onEnded }: PendingTurnProps) {
  const { t } = useStrings(chatStrings);
  // The state is re-read on each state-changing event; and, until the task has ended, every
  // second as well, so a missed or late event can delay what the page says but never stop it.
  const task = useQuery({
    queryKey: taskKey(turn.taskId),
    queryFn: () => api('GET', `/v1/tasks/${encodeURIComponent(turn.taskId)}`, Task),
    refetchInterval: (q) => (q.state.data !== undefined && TERMINAL.includes(q.state.data.status) ? false : 1000),
  });
  const { stream, connection } = useTaskEvents(turn.taskId, () => void task.refetch());
  const status = task.data?.status ?? 'queued';
  // When the first words arrived while this page watched (not when it came back to a reply already
  // half written, which would say nothing about the wait).
  const firstTextAt = useRef<number | null>(null);
  const watchedFromStart = useRef(stream.text === '');
  useEffect(() => {
    if (stream.text !== '' && firstTextAt.current === null && watchedFromStart.current) firstTextAt.current = browserNow();
  }, [stream.text]);
  // How long the model thought: timed in the page when it watched the thought begin and end (the
  // events' own times are whole seconds), else from those times.
  const thoughtAt = useRef<{ start: number | null; end: number | null }>({ start: null, end: null });
  const thought = stream.thought;
  useEffect(() => {
    if (thought === null || !watchedFromStart.current) return;
    thoughtAt.current.start ??= browserNow();
    if (thought.done) thoughtAt.current.end ??= browserNow();
  }, [thought]);
  const watched = thoughtAt.current;
  const thinkingSeconds = watched.start !== null && watched.end !== null ? (watched.end - watched.start) / 1000 : thoughtSeconds(thought);
  const told = useRef(false);
  useEffect(() => {
    if (status !== 'completed' || told.current) return;
    told.current = true;
    const endedAt = browserNow();
    // A reply that ended before its streamed text reached the page was first seen whole, now.
    const firstSeen = firstTextAt.current ?? (watchedFromStart.current ? endedAt : null);
    const stats = measureReply(turn.sentAt ?? null, firstSeen, endedAt, task.data?.output_tokens ?? null);
    // Kept under the reply's item id before the stored items take this view's place.
    void api('GET', `/v1/responses/${encodeURIComponent(turn.responseId)}`, AnswerIds)
      .then((r) => {
        const answer = r.output.find((item) => item.type === 'message');
        if (answer) saveReplyStats(answer.id, stats);
        const reasoning = r.output.find((item) => item.type === 'reasoning');
        if (reasoning && thinkingSeconds !== null) saveThoughtSeconds(reasoning.id, thinkingSeconds);
      })
      .catch(() => undefined)
      .finally(onCompleted);
  }, [status, onCompleted, turn.sentAt, turn.responseId, task.data?.output_tokens, thinkingSeconds]);
  useEffect(() => {
    if (task.error instanceof ApiError && task.error.status === 404) onGone();
  }, [task.error, onGone]);
  useEffect(onGrow, [stream.text, thought, status, onGrow]);

  const error = task.data?.error ?? null;
  const key = failureKey(error?.code ?? null);
  const ended = status === 'failed' || status === 'cancelled';
  useEffect(() => onEnded(ended || status === 'completed'), [ended, status, onEnded]);
  const line =
    status === 'queued'
      ? t('queued')
      : status === 'loading'
        ? t('loadingModel', { model })
        : status === 'running' && connection === 'connecting' && stream.lastSeq > 0
          ? t('reconnecting')
          : status === 'running' && thought !== null && !thought.done
            ? null // The thought's own block says "Thinking…".
            : status === 'running'
              ? t('writing')
              : null;
  return (
    <>
      <li className="chat-msg user" data-testid="chat-message" data-role="user" data-pending="true">
        <span className="chat-role">{t('you')}</span>
        <div className="chat-bubble" dir="auto">
          <p dir="auto" className="chat-plain">
            {turn.text}
          </p>
        </div>
      </li>
      <li className="chat-msg assistant" data-testid="chat-pending" data-status={status}>
        <span className="chat-role">{t('assistant')}</span>
        {thought !== null && <ThoughtBlock text={thought.text} thinking={!thought.done && !ended} seconds={thinkingSeconds} />}
        {/* While the model thinks there is nothing to put in the answer's bubble yet. */}
        {(stream.text !== '' || line !== null) && (
          <div className="chat-bubble" dir="auto" data-testid="chat-pending-text">
            {stream.text !== '' && <Markdown text={stream.text} copyLabel={t('copyCode')} />}
            {line !== null && (
              <p className="muted chat-status" role="status" data-testid="chat-turn-state">
                {line}
              </p>
            )}
          </div>
        )}
        {ended && (
          <div className={status === 'failed' ? 'chat-notice fail' : 'chat-notice warn'} role="alert" data-testid="chat-turn-ended">
            <p>
              {status === 'cancelled'
                ? t('stopped')
                : t('failed', { message: key === null ? (error?.message ?? '') : t(key, { message: error?.message ?? '' }) })}
            </p>
            <div className="row">
              <button type="button" onClick={onRetry} data-testid="chat-retry">
                {t('retry')}
              </button>
              <button type="button" onClick={onDismiss}>
                {t('dismiss')}
              </button>
            </div>
          </div>
        )}
      </li>
    </>
  );
}
