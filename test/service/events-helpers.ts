// Shared checks for the service tests: reading a task's whole event log back through the API and
// the invariants every log must keep (LMSP: gap-free sequence numbers, one terminal event, last).
import assert from 'node:assert/strict';
import { type Api, field, num, str, waitFor } from '../harness/api.js';
import type { SseFrame } from '../harness/sse.js';
import type { Settings } from '../../src/store/settings.js';

export const TERMINAL_TYPES: readonly string[] = ['response.completed', 'response.failed', 'response.cancelled'];
export const TERMINAL_STATUSES: readonly string[] = ['completed', 'failed', 'cancelled'];

/** Settings for tests that poll a lot: the default per-client rate limit would answer 429. */
export const NO_RATE_LIMIT: Partial<Settings> = { requests_per_minute_per_client: 1_000_000 };

export interface LoggedEvent {
  type: string;
  sequence_number: number;
  task_id: string;
  response_id: string;
  raw: unknown;
}

export function toLoggedEvent(raw: unknown): LoggedEvent {
  return {
    type: str(raw, 'type'),
    sequence_number: num(raw, 'sequence_number'),
    task_id: str(raw, 'task_id'),
    response_id: str(raw, 'response_id'),
    raw,
  };
}

export function frameToEvent(frame: SseFrame): LoggedEvent {
  const event = toLoggedEvent(frame.data);
  // The SSE framing must agree with the payload it carries.
  assert.equal(frame.id, String(event.sequence_number), 'SSE id: line is the sequence number');
  assert.equal(frame.event, event.type, 'SSE event: line is the event type');
  return event;
}

/** The task's whole event log, read page by page through `GET /v1/tasks/{id}/events`. */
export async function allEvents(api: Api, taskId: string): Promise<LoggedEvent[]> {
  const out: LoggedEvent[] = [];
  for (;;) {
    const after = out.at(-1)?.sequence_number ?? 0;
    const res = await api.get(`/v1/tasks/${taskId}/events?after=${after}&limit=1000`);
    assert.equal(res.status, 200, res.text);
    const data = field(res.body, 'data');
    assert.ok(Array.isArray(data));
    out.push(...data.map(toLoggedEvent));
    if (field(res.body, 'has_more') !== true) return out;
    assert.ok(data.length > 0, 'has_more with an empty page would loop forever');
  }
}

/** Sequence numbers run first, first+1, ... with no gap and no repeat. */
export function assertConsecutive(events: ReadonlyArray<{ type: string; sequence_number: number }>, first: number, what = 'events'): void {
  events.forEach((e, i) =>
    assert.equal(e.sequence_number, first + i, `${what}: event #${i} (${e.type}) has sequence ${e.sequence_number}, expected ${first + i}`),
  );
}

/** The LMSP log invariants: starts at 1 with response.created, gap-free, exactly one terminal event, last. */
export function assertWellFormedLog(events: readonly LoggedEvent[], taskId: string): void {
  assert.ok(events.length > 0, `task ${taskId} has no events`);
  assertConsecutive(events, 1, taskId);
  assert.equal(events[0]?.type, 'response.created');
  const terminal = events.filter((e) => TERMINAL_TYPES.includes(e.type));
  assert.equal(terminal.length, 1, `task ${taskId}: expected exactly one terminal event, got ${terminal.map((e) => e.type).join(', ')}`);
  assert.equal(events.at(-1)?.type, terminal[0]?.type, `task ${taskId}: the terminal event is not the last one`);
  for (const e of events) assert.equal(e.task_id, taskId);
}

/** Concatenated `response.output_text.delta` texts. */
export function deltaText(events: readonly LoggedEvent[]): string {
  return events
    .filter((e) => e.type === 'response.output_text.delta')
    .map((e) => str(e.raw, 'delta'))
    .join('');
}

/** The text of the first output message of a response object. */
export function outputText(response: unknown): string {
  const output = field(response, 'output');
  assert.ok(Array.isArray(output));
  if (output.length === 0) return '';
  return str(output[0], 'content', 0, 'text');
}

export async function createBackground(api: Api, maxOutputTokens: number, input = 'Say something.'): Promise<{ responseId: string; taskId: string }> {
  const res = await api.post('/v1/responses', { model: 'tiny', input, background: true, max_output_tokens: maxOutputTokens });
  assert.equal(res.status, 202, res.text);
  return { responseId: str(res.body, 'id'), taskId: str(res.body, 'task_id') };
}

export async function getTaskObject(api: Api, taskId: string): Promise<unknown> {
  const res = await api.get(`/v1/tasks/${taskId}`);
  assert.equal(res.status, 200, res.text);
  return res.body;
}

/** Waits until the task is terminal and returns its object. */
export function waitTerminal(api: Api, taskId: string, timeoutMs = 60_000): Promise<unknown> {
  return waitFor(
    async () => {
      const task = await getTaskObject(api, taskId);
      return TERMINAL_STATUSES.includes(str(task, 'status')) ? task : undefined;
    },
    timeoutMs,
    `task ${taskId} to end`,
  );
}

/** Waits until the task has logged at least `n` events (it is generating). */
export function waitSequence(api: Api, taskId: string, n: number, timeoutMs = 30_000): Promise<unknown> {
  return waitFor(
    async () => {
      const task = await getTaskObject(api, taskId);
      return num(task, 'last_sequence_number') >= n ? task : undefined;
    },
    timeoutMs,
    `task ${taskId} to reach sequence ${n}`,
  );
}

/** A `{"object": "list", "data", "has_more"}` page, checked at run time. */
export function listPage(body: unknown): { data: unknown[]; has_more: boolean } {
  assert.equal(field(body, 'object'), 'list');
  const data = field(body, 'data');
  const hasMore = field(body, 'has_more');
  assert.ok(Array.isArray(data), 'data is an array');
  assert.equal(typeof hasMore, 'boolean');
  return { data, has_more: hasMore === true };
}
