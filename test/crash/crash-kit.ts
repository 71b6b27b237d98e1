// Shared pieces of the crash tests: `sanad serve` children that are always killed, the store
// exactly as a SIGKILLed process left it (opened read-only, so the test never "helps" recovery),
// and the event log as a client reads it through the API.
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { isTaskStatus, type OnRestart, type TaskStatus } from '../../src/tasks/types.js';
import type { Settings } from '../../src/store/settings.js';
import { field, num, str, waitFor, type Api } from '../harness/api.js';
import { prepareDataDir, type PreparedDataDir } from '../harness/data-dir.js';
import { startServiceProcess, type ServiceProcess } from '../harness/service-process.js';
import { STORE_FILE } from '../../src/files/data-dir-layout.js';

const live = new Set<ServiceProcess>();
// Backstop: even if a test throws past its `finally`, no child outlives the test process.
process.once('exit', () => {
  for (const s of live) s.child.kill('SIGKILL');
});

/** Starts `sanad serve` on the data dir; `killAllServices` (wired to `after`) ends it for sure. */
export async function startService(dataDir: string, token: string): Promise<ServiceProcess> {
  const service = await startServiceProcess(dataDir, token);
  live.add(service);
  service.child.once('exit', () => live.delete(service));
  return service;
}

/**
 * A data dir for a crash test. The tests poll while generations run, which on a loaded machine
 * can pass the default 1200 requests a minute; rate limiting is not what they test.
 */
export function prepareCrashDataDir(settings: Partial<Settings> = {}): Promise<PreparedDataDir> {
  return prepareDataDir({ requests_per_minute_per_client: 1_000_000, ...settings });
}

export async function killAllServices(): Promise<void> {
  await Promise.all([...live].map((s) => s.kill()));
}

/**
 * Cancels every task at once and SIGKILLs the service in the tick the last answer arrives, before
 * the workers can finish the cancels (the task stays `cancelling` on disk for a few ms).
 */
export async function cancelThenKill(service: ServiceProcess, token: string, taskIds: readonly string[]): Promise<number[]> {
  let waiting = taskIds.length;
  try {
    return await Promise.all(
      taskIds.map(async (id) => {
        const res = await fetch(`${service.url}/v1/tasks/${id}/cancel`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
        if (--waiting === 0) void service.kill();
        return res.status;
      }),
    );
  } finally {
    await service.kill();
  }
}

/**
 * Cancels every task at once and SIGKILLs the service as the *first* answer arrives. Cancels share
 * one commit, so the others are usually `cancelling` on disk too; with kept sequences a cancel
 * finishes within a token, and waiting for the last answer let the earlier ones reach `cancelled`.
 * Returns each request's status, 0 for one the kill cut off.
 */
export async function cancelThenKillAtFirst(service: ServiceProcess, token: string, taskIds: readonly string[]): Promise<number[]> {
  try {
    return await Promise.all(
      taskIds.map(async (id) => {
        try {
          const res = await fetch(`${service.url}/v1/tasks/${id}/cancel`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
          void service.kill();
          return res.status;
        } catch {
          return 0;
        }
      }),
    );
  } finally {
    await service.kill();
  }
}

export const TERMINAL_TYPES = ['response.completed', 'response.failed', 'response.cancelled'];

/** The task state an event reports (design doc, "Events"): a task's last event must match its row. */
const STATE_OF_EVENT: Record<string, TaskStatus> = {
  'response.created': 'queued',
  'response.queued': 'queued',
  'response.loading': 'loading',
  'response.in_progress': 'running',
  'response.output_item.added': 'running',
  'response.content_part.added': 'running',
  'response.output_text.delta': 'running',
  'response.output_text.done': 'running',
  'response.content_part.done': 'running',
  'response.output_item.done': 'running',
  'response.function_call_arguments.delta': 'running',
  'response.function_call_arguments.done': 'running',
  'response.reasoning_text.delta': 'running',
  'response.reasoning_text.done': 'running',
  'response.cancelling': 'cancelling',
  'response.completed': 'completed',
  'response.failed': 'failed',
  'response.cancelled': 'cancelled',
};

export interface WireEvent {
  type: string;
  sequence_number: number;
  data: Record<string, unknown>;
}

export interface FoundTask {
  id: string;
  status: TaskStatus;
  on_restart: OnRestart;
  last_sequence_number: number;
  events: WireEvent[];
}

export function asRecord(value: unknown): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error(`not an object: ${JSON.stringify(value)}`);
  return Object.fromEntries(Object.entries(value));
}

function asPolicy(value: string): OnRestart {
  if (value === 'fail' || value === 'retry' || value === 'resume') return value;
  throw new Error(`stored on_restart is ${value}`);
}

/**
 * Every task as the crashed process left it on disk, and checks what §11.2 promises of that
 * disk: events 1..N with no gap, N stored on the task, and the last event reporting the stored
 * state (they were written in one transaction, so a SIGKILL cannot split them).
 */
export function readCrashedStore(dataDir: string): Map<string, FoundTask> {
  const db = new Database(join(dataDir, STORE_FILE), { readonly: true, fileMustExist: true });
  try {
    const rows = db
      .prepare<[], { id: string; status: string; on_restart: string; last_sequence_number: number }>(
        'SELECT id, status, on_restart, last_sequence_number FROM tasks ORDER BY id',
      )
      .all();
    const events = db.prepare<[string], { sequence_number: number; type: string; data: string }>(
      'SELECT sequence_number, type, data FROM task_events WHERE task_id = ? ORDER BY sequence_number',
    );
    const found = new Map<string, FoundTask>();
    for (const row of rows) {
      if (!isTaskStatus(row.status)) throw new Error(`stored status ${row.status}`);
      const log = events.all(row.id).map((e) => ({ sequence_number: e.sequence_number, type: e.type, data: asRecord(JSON.parse(e.data)) }));
      assert.deepEqual(
        log.map((e) => e.sequence_number),
        log.map((_, i) => i + 1),
        `stored events of ${row.id} are 1..N`,
      );
      assert.equal(row.last_sequence_number, log.length, `stored last_sequence_number of ${row.id}`);
      assert.equal(log[0]?.type, 'response.created', `event 1 of ${row.id}`);
      assert.equal(STATE_OF_EVENT[log.at(-1)?.type ?? ''], row.status, `the last stored event of ${row.id} reports its stored state`);
      found.set(row.id, { id: row.id, status: row.status, on_restart: asPolicy(row.on_restart), last_sequence_number: row.last_sequence_number, events: log });
    }
    return found;
  } finally {
    db.close();
  }
}

/** Creates a background response; returns its task and response ids after checking the 202. */
export async function createBackground(
  api: Api,
  onRestart: OnRestart,
  maxOutputTokens: number,
  model = 'tiny',
): Promise<{ taskId: string; responseId: string }> {
  const res = await api.post('/v1/responses', {
    model,
    input: 'Tell me a long story.',
    background: true,
    on_restart: onRestart,
    max_output_tokens: maxOutputTokens,
  });
  assert.equal(res.status, 202, res.text);
  const taskId = str(res.body, 'task_id');
  assert.equal(res.headers.get('location'), `/v1/tasks/${taskId}`);
  return { taskId, responseId: str(res.body, 'id') };
}

/** The whole event log of a task through `GET /v1/tasks/{id}/events`, page by page. */
export async function eventLog(api: Api, taskId: string): Promise<WireEvent[]> {
  const out: WireEvent[] = [];
  for (;;) {
    const res = await api.get(`/v1/tasks/${taskId}/events?after=${out.at(-1)?.sequence_number ?? 0}&limit=1000`);
    assert.equal(res.status, 200, res.text);
    const data = field(res.body, 'data');
    assert.ok(Array.isArray(data));
    for (const item of data) out.push({ type: str(item, 'type'), sequence_number: num(item, 'sequence_number'), data: asRecord(item) });
    if (field(res.body, 'has_more') !== true) return out;
  }
}

export async function taskStatus(api: Api, taskId: string): Promise<{ status: string; last_sequence_number: number; error_code: string | null }> {
  const res = await api.get(`/v1/tasks/${taskId}`);
  assert.equal(res.status, 200, res.text);
  const error = field(res.body, 'error');
  return {
    status: str(res.body, 'status'),
    last_sequence_number: num(res.body, 'last_sequence_number'),
    error_code: error === null ? null : str(error, 'code'),
  };
}

export interface TaskState {
  status: string;
  last_sequence_number: number;
}

/** Every task's state from one `GET /v1/tasks` call (the tests never hold more than 100). */
export async function taskStates(api: Api): Promise<Map<string, TaskState>> {
  const res = await api.get('/v1/tasks?limit=100');
  assert.equal(res.status, 200, res.text);
  const data = field(res.body, 'data');
  assert.ok(Array.isArray(data));
  return new Map(data.map((t) => [str(t, 'id'), { status: str(t, 'status'), last_sequence_number: num(t, 'last_sequence_number') }]));
}

/** Waits until every task satisfies `ok` (missing tasks never do). */
export async function waitTasks(api: Api, taskIds: readonly string[], ok: (t: TaskState) => boolean, what: string, timeoutMs = 90_000): Promise<void> {
  await waitFor(
    async () => {
      const states = await taskStates(api);
      return taskIds.every((id) => {
        const t = states.get(id);
        return t !== undefined && ok(t);
      });
    },
    timeoutMs,
    what,
  );
}

export function waitAllTerminal(api: Api, taskIds: readonly string[]): Promise<void> {
  return waitTasks(api, taskIds, (t) => ['completed', 'failed', 'cancelled'].includes(t.status), 'every task to finish');
}

/** Waits until every task is generating and has committed at least `events` events. */
export function waitGenerating(api: Api, taskIds: readonly string[], events: number): Promise<void> {
  return waitTasks(
    api,
    taskIds,
    (t) => t.status === 'running' && t.last_sequence_number >= events,
    `${taskIds.length} generations with text committed`,
    60_000,
  );
}

/**
 * The event-log rules of the design doc for a finished task: sequence numbers 1..N with no gap
 * or repeat, exactly one terminal event and it is the last, and the task's
 * last_sequence_number is N.
 */
export function assertFinishedLog(events: readonly WireEvent[], task: { last_sequence_number: number }, what: string): void {
  assert.deepEqual(
    events.map((e) => e.sequence_number),
    events.map((_, i) => i + 1),
    `${what}: sequence numbers 1..N`,
  );
  const terminals = events.filter((e) => TERMINAL_TYPES.includes(e.type));
  assert.equal(terminals.length, 1, `${what}: exactly one terminal event, got ${terminals.map((e) => e.type).join(', ')}`);
  assert.equal(events.at(-1), terminals[0], `${what}: the terminal event is the last`);
  assert.equal(task.last_sequence_number, events.length, `${what}: last_sequence_number`);
}

/** Text a client builds from the events: deltas appended, and dropped again by `response.queued`. */
export function clientText(events: readonly WireEvent[]): string {
  let text = '';
  for (const e of events) {
    if (e.type === 'response.queued') text = '';
    if (e.type === 'response.output_text.delta') text += str(e.data, 'delta');
  }
  return text;
}

export function deltaText(events: readonly WireEvent[], type = 'response.output_text.delta'): string {
  return events
    .filter((e) => e.type === type)
    .map((e) => str(e.data, 'delta'))
    .join('');
}

/** The final text as the API reports it three ways; they must agree. */
export async function finalText(api: Api, responseId: string, events: readonly WireEvent[]): Promise<string> {
  const done = events.filter((e) => e.type === 'response.output_text.done');
  assert.equal(done.length, 1, 'one response.output_text.done');
  const text = str(done[0]?.data, 'text');
  const res = await api.get(`/v1/responses/${responseId}`);
  assert.equal(res.status, 200, res.text);
  assert.equal(str(res.body, 'output', 0, 'content', 0, 'text'), text, 'GET /v1/responses text equals output_text.done');
  return text;
}
