// The SSE contract: framing, the event log as JSON pages and as a resumable stream, replay + live
// without gap or repeat, and what a disconnecting reader does to foreground and background tasks.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { num, str, waitFor } from '../harness/api.js';
import { startTestAppliance, type TestAppliance } from '../harness/appliance.js';
import { readSse, type SseFrame } from '../harness/sse.js';
import {
  allEvents,
  assertConsecutive,
  assertWellFormedLog,
  createBackground,
  deltaText,
  frameToEvent,
  type LoggedEvent,
  listPage,
  NO_RATE_LIMIT,
  outputText,
  TERMINAL_TYPES,
  waitSequence,
  waitTerminal,
} from './events-helpers.js';

let t: TestAppliance;
let auth: Record<string, string>;

before(async () => {
  t = await startTestAppliance({ settings: NO_RATE_LIMIT });
  // These tests hold the Responses stream to LMSP's event log, so they ask for all of it (the default
  // view, OpenAI's events only, is tried in test/clients/ and test/api/conversation-state.test.ts).
  auth = { authorization: `Bearer ${t.adminToken}`, 'LMSP-Events': 'all' };
});
after(() => t.close());

/** Reads a stream that the server must close by itself; fails if it is still open after `ms`. */
async function readToEnd(path: string, headers: Record<string, string> = {}, ms = 15_000): Promise<{ frames: SseFrame[]; contentType: string | null }> {
  const started = Date.now();
  const res = await readSse(t.appliance.url + path, { headers: { ...auth, ...headers } }, () => false, ms);
  assert.equal(res.status, 200);
  // readSse returns quietly on its timeout too, so time it: the server must have ended the stream.
  assert.ok(Date.now() - started < ms - 500, `the server did not close ${path} by itself`);
  return { frames: res.frames, contentType: res.contentType };
}

/** Payload equality between a stream and the stored log (created_at etc. included). */
function assertSameEvents(streamed: readonly LoggedEvent[], stored: readonly LoggedEvent[], what: string): void {
  assert.deepEqual(
    streamed.map((e) => e.raw),
    stored.map((e) => e.raw),
    what,
  );
}

test('framing: a streamed create is text/event-stream with id/event/data frames', async () => {
  const res = await fetch(t.appliance.url + '/v1/responses', {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'tiny', input: 'Frames.', max_output_tokens: 16, stream: true }),
  });
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-type') ?? '', /^text\/event-stream/);
  const text = await res.text();
  assert.ok(text.endsWith('\n\n'), 'every frame ends with a blank line');
  const blocks = text.split('\n\n').filter((b) => b !== '' && !b.startsWith(':'));
  const events = blocks.map((block, i) => {
    const lines = block.split('\n');
    assert.equal(lines.length, 3, `frame #${i} has exactly id, event, data lines: ${JSON.stringify(block)}`);
    const [id, event, data] = lines;
    assert.match(id ?? '', /^id: \d+$/);
    assert.match(event ?? '', /^event: response\.[a-z_.]+$/);
    assert.match(data ?? '', /^data: \{.*\}$/);
    return frameToEvent({ id: (id ?? '').slice(4), event: (event ?? '').slice(7), data: JSON.parse((data ?? '').slice(6)) });
  });
  const taskId = events[0]?.task_id ?? '';
  const stored = await allEvents(t.api, taskId);
  assertWellFormedLog(stored, taskId);
  assertSameEvents(events, stored, 'the stream is exactly the stored log');
  assert.equal(events.at(-1)?.type, 'response.completed');
});

test('GET /v1/tasks/{id}/events pages the log as JSON (after, limit, has_more)', async () => {
  const { taskId } = await createBackground(t.api, 40);
  await waitTerminal(t.api, taskId);
  const full = await allEvents(t.api, taskId);
  assertWellFormedLog(full, taskId);
  assert.ok(full.length > 20, `expected a long log, got ${full.length}`);

  const first = await t.api.get(`/v1/tasks/${taskId}/events?limit=10`);
  assert.equal(first.status, 200);
  assert.deepEqual(listPage(first.body), { data: full.slice(0, 10).map((e) => e.raw), has_more: true });

  // Paging with an odd limit, by `after`, reassembles the log exactly.
  const paged: unknown[] = [];
  let cursor = 0;
  for (let guard = 0; guard < 100; guard++) {
    const page = await t.api.get(`/v1/tasks/${taskId}/events?after=${cursor}&limit=7`);
    const body = listPage(page.body);
    paged.push(...body.data);
    assert.ok(body.data.length <= 7);
    if (!body.has_more) break;
    cursor = num(body.data.at(-1), 'sequence_number');
  }
  assert.deepEqual(
    paged,
    full.map((e) => e.raw),
  );

  const last = full.at(-1)?.sequence_number ?? 0;
  const tail = await t.api.get(`/v1/tasks/${taskId}/events?after=${last - 2}`);
  assert.deepEqual(listPage(tail.body), { data: full.slice(-2).map((e) => e.raw), has_more: false });
  const empty = await t.api.get(`/v1/tasks/${taskId}/events?after=${last}`);
  assert.deepEqual(empty.body, { object: 'list', data: [], has_more: false });

  for (const bad of ['after=-1', 'after=x', 'limit=0', 'limit=1001']) {
    const res = await t.api.get(`/v1/tasks/${taskId}/events?${bad}`);
    assert.equal(res.status, 400, bad);
    assert.equal(str(res.body, 'error', 'param'), bad.split('=')[0]);
  }
});

test('the events as SSE resume from after= and from Last-Event-ID; a terminal task replays and closes', async () => {
  const { taskId, responseId } = await createBackground(t.api, 30);
  await waitTerminal(t.api, taskId);
  const full = await allEvents(t.api, taskId);
  const last = full.at(-1)?.sequence_number ?? 0;
  const sse = { accept: 'text/event-stream' };

  const fromAfter = await readToEnd(`/v1/tasks/${taskId}/events?after=5`, sse);
  assert.match(fromAfter.contentType ?? '', /^text\/event-stream/);
  assertSameEvents(fromAfter.frames.map(frameToEvent), full.slice(5), 'after=5');

  const fromHeader = await readToEnd(`/v1/tasks/${taskId}/events`, { ...sse, 'last-event-id': '7' });
  assertSameEvents(fromHeader.frames.map(frameToEvent), full.slice(7), 'Last-Event-ID: 7');

  // A reconnecting EventSource sends Last-Event-ID while its URL still carries the old after=.
  const both = await readToEnd(`/v1/tasks/${taskId}/events?after=2`, { ...sse, 'last-event-id': '9' });
  assertSameEvents(both.frames.map(frameToEvent), full.slice(9), 'Last-Event-ID wins over after');

  const replay = await readToEnd(`/v1/responses/${responseId}?stream=true&starting_after=3`);
  assertSameEvents(replay.frames.map(frameToEvent), full.slice(3), 'responses starting_after=3');
  const whole = await readToEnd(`/v1/responses/${responseId}?stream=true`);
  assertSameEvents(whole.frames.map(frameToEvent), full, 'responses stream without starting_after');

  // Nothing after the terminal event: the stream must still end, not idle on heartbeats.
  const nothing = await readToEnd(`/v1/responses/${responseId}?stream=true&starting_after=${last}`, {}, 5_000);
  assert.deepEqual(nothing.frames, []);
  const nothingTask = await readToEnd(`/v1/tasks/${taskId}/events`, { ...sse, 'last-event-id': String(last) }, 5_000);
  assert.deepEqual(nothingTask.frames, []);
});

test('a replay longer than one page of the store (500 events) arrives whole, in order, and ends', async () => {
  const { taskId, responseId } = await createBackground(t.api, 700);
  await waitTerminal(t.api, taskId);
  const full = await allEvents(t.api, taskId);
  assert.ok(full.length > 600, `${full.length} events`);
  const replay = await readToEnd(`/v1/tasks/${taskId}/events`, { accept: 'text/event-stream' }, 30_000);
  assertSameEvents(replay.frames.map(frameToEvent), full, 'the whole log over SSE');
  const fromResponses = await readToEnd(`/v1/responses/${responseId}?stream=true&starting_after=50`, {}, 30_000);
  assertSameEvents(fromResponses.frames.map(frameToEvent), full.slice(50), 'responses starting_after=50');
});

test('streams opened mid-generation deliver every event after N exactly once, in order, through the terminal one', async () => {
  const { taskId, responseId } = await createBackground(t.api, 1000);
  const opened: Array<Promise<{ n: number; events: LoggedEvent[] }>> = [];
  // Open readers at several moments while text flows, each from a point a little in the past,
  // so every stream crosses from the replayed part into the live part.
  for (const at of [10, 60, 150, 300]) {
    const task = await waitSequence(t.api, taskId, at);
    const n = Math.max(0, num(task, 'last_sequence_number') - 7);
    const path = at % 20 === 0 ? `/v1/responses/${responseId}?stream=true&starting_after=${n}` : `/v1/tasks/${taskId}/events`;
    const headers: Record<string, string> = at % 20 === 0 ? {} : { accept: 'text/event-stream', 'last-event-id': String(n) };
    opened.push(readToEnd(path, headers, 60_000).then((r) => ({ n, events: r.frames.map(frameToEvent) })));
  }
  const streams = await Promise.all(opened);
  const full = await allEvents(t.api, taskId);
  assertWellFormedLog(full, taskId);
  for (const { n, events } of streams) {
    assertConsecutive(events, n + 1, `stream after ${n}`);
    assertSameEvents(events, full.slice(n), `stream after ${n}`);
    assert.ok(TERMINAL_TYPES.includes(events.at(-1)?.type ?? ''));
  }
  const task = await waitTerminal(t.api, taskId);
  assert.equal(num(task, 'last_sequence_number'), full.at(-1)?.sequence_number);
});

test('a foreground stream whose client disconnects gets its task cancelled', async () => {
  let deltas = 0;
  const res = await readSse(
    t.appliance.url + '/v1/responses',
    {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'tiny', input: 'Long foreground.', max_output_tokens: 1800, stream: true }),
    },
    (frame) => frame.event === 'response.output_text.delta' && ++deltas >= 5,
  );
  assert.equal(res.status, 200);
  assert.equal(res.frames.at(-1)?.event, 'response.output_text.delta', 'we left mid-generation');
  const taskId = str(res.frames[0]?.data, 'task_id');
  const responseId = str(res.frames[0]?.data, 'response_id');
  const task = await waitTerminal(t.api, taskId, 30_000);
  assert.equal(str(task, 'status'), 'cancelled');
  const log = await allEvents(t.api, taskId);
  assertWellFormedLog(log, taskId);
  const cancelling = log.findIndex((e) => e.type === 'response.cancelling');
  assert.ok(cancelling > 0, 'the cancel went through the cancelling state');
  assert.ok(!log.slice(cancelling).some((e) => e.type === 'response.output_text.delta'), 'no text after the cancel');
  assert.equal(log.at(-1)?.type, 'response.cancelled');
  const response = await t.api.get(`/v1/responses/${responseId}`);
  assert.equal(str(response.body, 'status'), 'cancelled');
  assert.equal(outputText(response.body), deltaText(log));
  await waitFor(() => t.appliance.ctx.hub.listenerCount() === 0, 5_000, 'stream listeners to be released');
});

test('a background task keeps running when its stream readers disconnect', async () => {
  // One reader from the create itself (background + stream), one from GET ?stream=true.
  let seen = 0;
  const created = await readSse(
    t.appliance.url + '/v1/responses',
    {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'tiny', input: 'Long background.', max_output_tokens: 700, stream: true, background: true }),
    },
    (frame) => frame.event === 'response.output_text.delta' && ++seen >= 3,
  );
  const taskId = str(created.frames[0]?.data, 'task_id');
  const responseId = str(created.frames[0]?.data, 'response_id');
  seen = 0;
  await readSse(
    `${t.appliance.url}/v1/responses/${responseId}?stream=true`,
    { headers: auth },
    (frame) => frame.event === 'response.output_text.delta' && ++seen >= 3,
  );

  const task = await waitTerminal(t.api, taskId, 60_000);
  assert.equal(str(task, 'status'), 'completed');
  const log = await allEvents(t.api, taskId);
  assertWellFormedLog(log, taskId);
  assert.ok(!log.some((e) => e.type === 'response.cancelling' || e.type === 'response.cancelled'));
  const response = await t.api.get(`/v1/responses/${responseId}`);
  assert.equal(str(response.body, 'status'), 'incomplete');
  assert.equal(num(response.body, 'usage', 'output_tokens'), 700, 'it generated its whole budget');
  assert.equal(outputText(response.body), deltaText(log));
  await waitFor(() => t.appliance.ctx.hub.listenerCount() === 0, 5_000, 'stream listeners to be released');
});
