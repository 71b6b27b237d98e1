// The task page's live state, folded from the task's events (GET /v1/tasks/{id}/events as SSE): the
// generated text and the latest events. A pure reducer, so the accumulation is unit-tested:
// - events are applied once, in sequence order (a replay after a reconnect repeats nothing);
// - `response.queued` starts a new attempt (a retry after a restart): partial text is dropped, as
//   the contract tells clients to do;
// - `response.output_text.done` carries the whole text: it replaces what the deltas built;
// - a reasoning model's thought (`response.reasoning_text.delta` / `.done`) is kept apart from the
//   text, with the times (event `created_at`, seconds) it began and ended.
// Only the newest MAX_EVENTS are kept for the list: a long generation has thousands of deltas.
import { z } from 'zod/v3';

export const MAX_EVENTS = 100;

export const StreamEvent = z
  .object({
    type: z.string(),
    sequence_number: z.number().int(),
    created_at: z.number().optional(),
    delta: z.string().optional(),
    text: z.string().optional(),
  })
  .passthrough();
export type StreamEvent = z.infer<typeof StreamEvent>;

export interface EventEntry {
  seq: number;
  type: string;
  at: number | null;
  /** A short detail: the delta's text. */
  detail: string | null;
}

export interface Thought {
  text: string;
  /** Its `.done` arrived: the model has finished thinking. */
  done: boolean;
  /** `created_at` (unix seconds) of its first delta and of its `.done`. */
  startedAt: number | null;
  endedAt: number | null;
}

export interface StreamState {
  lastSeq: number;
  text: string;
  /** The model's thinking in this attempt (null: it has not thought). */
  thought: Thought | null;
  events: EventEntry[];
  /** All events applied, including those no longer in `events`. */
  total: number;
  /** The terminal event arrived: nothing more will come. */
  ended: boolean;
}

export const TERMINAL_EVENTS = ['response.completed', 'response.failed', 'response.cancelled'];

export const initialStream: StreamState = { lastSeq: 0, text: '', thought: null, events: [], total: 0, ended: false };

const REASONING_DELTA = 'response.reasoning_text.delta';
const REASONING_DONE = 'response.reasoning_text.done';

function thinking(thought: Thought | null, e: StreamEvent): Thought | null {
  const at = e.created_at ?? null;
  if (e.type === REASONING_DELTA && e.delta !== undefined)
    return { text: (thought?.text ?? '') + e.delta, done: false, startedAt: thought?.startedAt ?? at, endedAt: null };
  if (e.type === REASONING_DONE && e.text !== undefined) return { text: e.text, done: true, startedAt: thought?.startedAt ?? at, endedAt: at };
  return thought;
}

/** How long the model thought, in seconds, from its events (null while it thinks). */
export function thoughtSeconds(thought: Thought | null): number | null {
  if (thought === null || thought.startedAt === null || thought.endedAt === null) return null;
  return Math.max(0, thought.endedAt - thought.startedAt);
}

export type StreamAction = { kind: 'events'; events: readonly StreamEvent[] } | { kind: 'reset' };

export function streamReducer(state: StreamState, action: StreamAction): StreamState {
  if (action.kind === 'reset') return initialStream;
  const sorted = [...action.events].sort((a, b) => a.sequence_number - b.sequence_number);
  let { lastSeq, text, thought, total, ended } = state;
  // One copy per batch (a replay can bring thousands of events at once), trimmed at the end.
  const events = [...state.events];
  for (const e of sorted) {
    if (e.sequence_number <= lastSeq) continue;
    if (e.type === 'response.queued') {
      text = '';
      thought = null;
    } else if (e.type === 'response.output_text.delta' && e.delta !== undefined) text += e.delta;
    else if (e.type === 'response.output_text.done' && e.text !== undefined) text = e.text;
    else thought = thinking(thought, e);
    const withDetail = e.type === 'response.output_text.delta' || e.type === REASONING_DELTA;
    events.push({ seq: e.sequence_number, type: e.type, at: e.created_at ?? null, detail: withDetail ? (e.delta ?? null) : null });
    lastSeq = e.sequence_number;
    total++;
    ended ||= TERMINAL_EVENTS.includes(e.type);
  }
  if (lastSeq === state.lastSeq) return state;
  return { lastSeq, text, thought, total, ended, events: events.length > MAX_EVENTS ? events.slice(-MAX_EVENTS) : events };
}

/** Events that change the task's state (not deltas): the page re-reads the task when one arrives. */
export function changesState(type: string): boolean {
  return !['response.output_text.delta', 'response.output_text.done', REASONING_DELTA, REASONING_DONE].includes(type);
}
