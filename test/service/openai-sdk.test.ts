// The official `openai` SDK (v7) against the running service: the compatibility promise of the
// contract is that existing clients work unchanged, so every call here goes through the SDK.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import { ResponseStream } from 'openai/lib/responses/ResponseStream';
import { num, str, waitFor } from '../harness/api.js';
import { startTestAppliance, type TestAppliance } from '../harness/appliance.js';
import { allEvents, assertConsecutive, assertWellFormedLog, deltaText, NO_RATE_LIMIT, outputText, TERMINAL_TYPES, waitSequence } from './events-helpers.js';

const TERMINAL_RESPONSE = ['completed', 'incomplete', 'failed', 'cancelled'];

let t: TestAppliance;
let client: OpenAI;

before(async () => {
  // One generation at a time: the cancel test needs a response that waits queued.
  t = await startTestAppliance({ settings: { ...NO_RATE_LIMIT, max_concurrent_generations: 1 } });
  // No retries: the SDK retries 409/5xx by default, which would hide what the service answered.
  // This file reads LMSP's whole event log through the SDK's iterator (LMSP-Events: all); the SDK
  // on the default stream, helpers included, is test/clients/openai-node.test.ts.
  client = new OpenAI({ baseURL: t.appliance.url + '/v1', apiKey: t.adminToken, maxRetries: 0, timeout: 60_000, defaultHeaders: { 'LMSP-Events': 'all' } });
});
after(() => t.close());

/** Our own event types (response.loading, response.cancelling) are not in the SDK's union. */
function typeOf(event: { type: string }): string {
  return event.type;
}

test('responses.create (plain) returns the finished text, and retrieve reads the same stored response', async () => {
  const created = await client.responses.create({ model: 'tiny', input: 'Hello there.', max_output_tokens: 24 });
  assert.ok(created.id.startsWith('resp_'));
  assert.equal(created.status, 'incomplete', 'the tiny model never stops on its own');
  assert.equal(created.incomplete_details?.reason, 'max_output_tokens');
  assert.ok(created.output_text.length > 0, 'output_text is derived by the SDK from output[]');
  assert.equal(created.usage?.output_tokens, 24);

  const stored = await client.responses.retrieve(created.id);
  assert.equal(stored.id, created.id);
  assert.equal(stored.status, 'incomplete');
  assert.equal(stored.output_text, created.output_text);
  assert.deepEqual(stored.usage, created.usage);
  assert.equal(stored.model, 'tiny');
});

test('stream: true yields gap-free events whose deltas add up to the final text', async () => {
  const stream = await client.responses.create({ model: 'tiny', input: 'Stream please.', max_output_tokens: 40, stream: true });
  const types: string[] = [];
  const seqs: number[] = [];
  let deltas = '';
  let finalText: string | null = null;
  let responseId = '';
  for await (const event of stream) {
    types.push(typeOf(event));
    seqs.push(event.sequence_number);
    if (event.type === 'response.created') responseId = event.response.id;
    if (event.type === 'response.output_text.delta') deltas += event.delta;
    // The raw stream does not derive output_text (only parsed responses do): read the output.
    if (event.type === 'response.completed') finalText = outputText(event.response);
  }
  seqs.forEach((s, i) => assert.equal(s, i + 1, `sequence numbers rise by exactly 1 (at #${i}: ${s})`));
  assert.equal(types[0], 'response.created');
  assert.equal(types.at(-1), 'response.completed');
  assert.equal(types.filter((x) => TERMINAL_TYPES.includes(x)).length, 1);
  assert.ok(deltas.length > 0);
  assert.equal(finalText, deltas, 'the completed response carries exactly the streamed text');
  const stored = await client.responses.retrieve(responseId);
  assert.equal(stored.output_text, deltas, 'the stored response holds the streamed text');
  assert.equal(stored.status, 'incomplete');
});

// `client.responses.stream()` itself rejects every stream of ours: the SDK's accumulator throws
// "Unhandled response stream event" on LMSP's own `response.loading` (and `response.cancelling`,
// `response.cancelled`), which the contract puts in these streams. What we can check is that the
// Responses-API part of our stream (item/part events, deltas, lifecycle) is what the helper needs:
// feed exactly those events to the SDK's own ResponseStream and compare its finalResponse().
const SDK_UNKNOWN = ['response.loading', 'response.cancelling', 'response.cancelled'];

test('the SDK ResponseStream accumulates our item/part/delta events; finalResponse() matches the store', async () => {
  const raw = await client.responses.create({ model: 'tiny', input: 'Helper stream.', max_output_tokens: 32, stream: true });
  const lines: string[] = [];
  for await (const event of raw) if (!SDK_UNKNOWN.includes(typeOf(event))) lines.push(JSON.stringify(event));
  assert.ok(
    lines.some((l) => l.includes('"response.output_item.added"')),
    'the service announces the message item',
  );
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode(lines.join('\n') + '\n'));
      controller.close();
    },
  });
  const stream = ResponseStream.fromReadableStream(body);
  let deltas = '';
  let snapshot = '';
  stream.on('response.output_text.delta', (e) => {
    deltas += e.delta;
    snapshot = e.snapshot;
  });
  const final = await stream.finalResponse();
  assert.ok(deltas.length > 0);
  assert.equal(snapshot, deltas, 'the SDK built its text snapshot on the message/part our events announced');
  assert.equal(final.output_text, deltas);
  assert.equal(final.status, 'incomplete');
  const stored = await client.responses.retrieve(final.id);
  assert.equal(stored.output_text, final.output_text);
  assert.equal(final.output[0]?.id, stored.output[0]?.id, 'the streamed item id is the stored one');
});

test('background: true answers queued, and retrieve follows it to its end', async () => {
  const created = await client.responses.create({ model: 'tiny', input: 'In the background.', max_output_tokens: 48, background: true });
  assert.equal(created.status, 'queued');
  assert.equal(created.background, true);
  const done = await waitFor(
    async () => {
      const r = await client.responses.retrieve(created.id);
      return TERMINAL_RESPONSE.includes(r.status ?? '') ? r : undefined;
    },
    60_000,
    'background response to end',
  );
  assert.equal(done.status, 'incomplete');
  assert.equal(done.usage?.output_tokens, 48);
  assert.ok(done.output_text.length > 0);
});

test('responses.cancel on a long background response ends it cancelled', async () => {
  const created = await client.responses.create({ model: 'tiny', input: 'A long one.', max_output_tokens: 1800, background: true });
  const taskId = str(created, 'task_id');
  // Wait until text flows, so the cancel hits a running generation (the 202 path).
  await waitSequence(t.api, taskId, 8);
  // One generation slot is busy, so a second background response waits queued: its cancel is a 200.
  const waiting = await client.responses.create({ model: 'tiny', input: 'Queued.', max_output_tokens: 16, background: true });
  const queuedCancel = await client.responses.cancel(waiting.id);
  assert.equal(queuedCancel.status, 'cancelled');
  assert.equal((await client.responses.retrieve(waiting.id)).status, 'cancelled');

  const cancelled = await client.responses.cancel(created.id);
  assert.equal(cancelled.id, created.id);
  assert.ok(cancelled.status === 'in_progress' || cancelled.status === 'cancelled', `cancel answered ${cancelled.status}`);
  const done = await waitFor(
    async () => {
      const r = await client.responses.retrieve(created.id);
      return TERMINAL_RESPONSE.includes(r.status ?? '') ? r : undefined;
    },
    30_000,
    'cancelled response to end',
  );
  assert.equal(done.status, 'cancelled');
  const events = await allEvents(t.api, taskId);
  assertWellFormedLog(events, taskId);
  assert.equal(events.at(-1)?.type, 'response.cancelled');
  assert.ok(events.some((e) => e.type === 'response.cancelling'));
  assert.equal(done.output_text, deltaText(events), 'the cancelled response keeps the text emitted before the cancel');
  assert.ok((done.usage?.output_tokens ?? 0) < 1800 || done.usage === null);

  // Cancelling again: the task is terminal, so a 409 that the SDK maps to ConflictError.
  await assert.rejects(client.responses.cancel(created.id), (err: unknown) => {
    assert.ok(err instanceof OpenAI.ConflictError, String(err));
    assert.equal(err.status, 409);
    assert.equal(err.code, 'task_not_cancellable');
    return true;
  });
});

test('retrieve(id, {stream: true, starting_after: N}) yields exactly the events after N through the terminal one', async () => {
  const created = await client.responses.create({ model: 'tiny', input: 'Resume me.', max_output_tokens: 600, background: true });
  const taskId = str(created, 'task_id');
  const task = await waitSequence(t.api, taskId, 12);
  // Mid-generation: part of the stream is replayed from the store, the rest arrives live.
  const n = num(task, 'last_sequence_number') - 4;
  const stream = await client.responses.retrieve(created.id, { stream: true, starting_after: n });
  const got: Array<{ type: string; sequence_number: number }> = [];
  for await (const event of stream) got.push({ type: typeOf(event), sequence_number: event.sequence_number });
  const log = await allEvents(t.api, taskId);
  assertWellFormedLog(log, taskId);
  const expected = log.filter((e) => e.sequence_number > n).map((e) => ({ type: e.type, sequence_number: e.sequence_number }));
  assert.equal(got[0]?.sequence_number, n + 1);
  assertConsecutive(got, n + 1, 'resumed stream');
  assert.deepEqual(got, expected);
  assert.equal(got.at(-1)?.type, 'response.completed');
  const stored = await client.responses.retrieve(created.id);
  assert.equal(stored.output_text, deltaText(log));
  assert.equal(outputText(stored), deltaText(log));
});

test('errors map to the SDK error classes', async () => {
  await assert.rejects(client.responses.create({ model: 'no-such-model', input: 'x' }), (err: unknown) => {
    assert.ok(err instanceof OpenAI.NotFoundError, String(err));
    assert.equal(err.status, 404);
    assert.equal(err.code, 'model_not_found');
    assert.equal(err.param, 'model');
    return true;
  });
  const stranger = new OpenAI({ baseURL: t.appliance.url + '/v1', apiKey: 'not-a-real-token', maxRetries: 0 });
  await assert.rejects(stranger.responses.create({ model: 'tiny', input: 'x' }), (err: unknown) => {
    assert.ok(err instanceof OpenAI.AuthenticationError, String(err));
    assert.equal(err.status, 401);
    assert.equal(err.code, 'invalid_api_key');
    return true;
  });
  await assert.rejects(client.responses.retrieve('resp_doesnotexist'), (err: unknown) => {
    assert.ok(err instanceof OpenAI.NotFoundError, String(err));
    return true;
  });
  await assert.rejects(client.responses.create({ model: 'tiny', input: 'x', temperature: 7 }), (err: unknown) => {
    assert.ok(err instanceof OpenAI.BadRequestError, String(err));
    assert.equal(err.param, 'temperature');
    return true;
  });
});
