// Conversation state at the API's edges: what a turn may name (item references, earlier responses,
// conversations, and whose they are), how a conversation longer than the model's context is
// treated (`truncation`), LMSP's opt-in lifecycle events, and deletions journalled.
import { before, after, test } from 'node:test';
import assert from 'node:assert/strict';
import { DeletionJournal } from '../../src/store/deletion-journal.js';
import { field, num, str, type Api } from '../harness/api.js';
import { startTestAppliance, type TestAppliance } from '../harness/appliance.js';
import { readSse } from '../harness/sse.js';
import { finishingModelPath } from '../fixtures/tiny-model.js';
import { assertError, makeClient } from './contract.js';

let ta: TestAppliance;
let alice: Api;
let bob: Api;

before(async () => {
  ta = await startTestAppliance();
  // The demo model with a 256-token context: a few turns overflow it.
  const added = await ta.api.post('/admin/models', { path: await finishingModelPath(1, 256), id: 'small' });
  assert.equal(added.status, 201, added.text);
  alice = ta.api.withToken((await makeClient(ta.api, ['responses:write'], 'alice')).token);
  bob = ta.api.withToken((await makeClient(ta.api, ['responses:write'], 'bob')).token);
});
after(() => ta.close());

const say = (text: string): Record<string, unknown> => ({ type: 'message', role: 'user', content: text });

test("an item_reference resolves to a stored item of the caller, never to another client's", async () => {
  const first = await alice.post('/v1/responses', { model: 'small', input: 'Hi' });
  assert.equal(first.status, 200, first.text);
  const answerId = str(first.body, 'output', 0, 'id');
  const again = await alice.post('/v1/responses', { model: 'small', input: [say('Hi'), { type: 'item_reference', id: answerId }, say('More')] });
  assert.equal(again.status, 200, again.text);
  assert.ok(num(again.body, 'usage', 'input_tokens') > num(first.body, 'usage', 'input_tokens') + 8);
  // An input item of an earlier response is referable too, by the id GET …/input_items shows.
  const inputs = await alice.get(`/v1/responses/${str(first.body, 'id')}/input_items`);
  const inputId = str(inputs.body, 'data', 0, 'id');
  const byInput = await alice.post('/v1/responses', {
    model: 'small',
    input: [
      { type: 'item_reference', id: inputId },
      { type: 'item_reference', id: answerId },
    ],
  });
  assert.equal(byInput.status, 200, byInput.text);
  const resolved = await alice.get(`/v1/responses/${str(byInput.body, 'id')}/input_items?order=asc`);
  assert.deepEqual(
    [str(resolved.body, 'data', 0, 'id'), str(resolved.body, 'data', 1, 'id')],
    [inputId, answerId],
    'a reference keeps the id of the item it names',
  );
  // Bob cannot read Alice's answer through a reference.
  assertError(await bob.post('/v1/responses', { model: 'small', input: [{ type: 'item_reference', id: answerId }] }), 404, 'item_not_found', 'input[0].id');
  assertError(
    await alice.post('/v1/responses', { model: 'small', input: [{ type: 'item_reference', id: 'msg_nothere' }] }),
    404,
    'item_not_found',
    'input[0].id',
  );
  // Nor continue her response, nor use her conversation.
  assertError(
    await bob.post('/v1/responses', { model: 'small', input: 'x', previous_response_id: str(first.body, 'id') }),
    404,
    'previous_response_not_found',
    'previous_response_id',
  );
  const conv = await alice.post('/v1/conversations', {});
  assertError(
    await bob.post('/v1/responses', { model: 'small', input: 'x', conversation: str(conv.body, 'id') }),
    404,
    'conversation_not_found',
    'conversation',
  );
  assertError(await bob.get(`/v1/conversations/${str(conv.body, 'id')}`), 404, 'conversation_not_found');
  assertError(
    await alice.post('/v1/responses', { model: 'small', input: 'x', conversation: str(conv.body, 'id'), previous_response_id: str(first.body, 'id') }),
    400,
    'invalid_request_error',
    'conversation',
  );
});

test('truncation "disabled": a conversation longer than the context is a 400 that names the sizes', async () => {
  const long = 'word-'.repeat(80);
  const res = await alice.post('/v1/responses', { model: 'small', input: long });
  assertError(res, 400, 'context_length_exceeded', 'input');
  assert.match(str(res.body, 'error', 'message'), /is \d+ tokens, and model small holds 256 in its context/);
  assert.equal(res.headers.get('x-should-retry'), 'false');
});

test('truncation "auto": the oldest items are left out to fit, and the response says how many', async () => {
  const items = Array.from({ length: 6 }, (_, i) => say(`${i}:${'x'.repeat(40)}`));
  const conv = await alice.post('/v1/conversations', { items });
  assert.equal(conv.status, 200, conv.text);
  const id = str(conv.body, 'id');
  const refused = await alice.post('/v1/responses', { model: 'small', input: 'next', conversation: id });
  assertError(refused, 400, 'context_length_exceeded', 'input');
  const fitted = await alice.post('/v1/responses', { model: 'small', input: 'next', conversation: id, truncation: 'auto' });
  assert.equal(fitted.status, 200, fitted.text);
  assert.equal(str(fitted.body, 'status'), 'completed');
  assert.equal(str(fitted.body, 'truncation'), 'auto');
  const dropped = num(fitted.body, 'truncated_items');
  assert.ok(dropped >= 1 && dropped < 7, `dropped ${dropped}`);
  // Nothing is taken out of the conversation itself: the turn is added after all of it.
  const kept = await alice.get(`/v1/conversations/${id}/items?order=asc&limit=100`);
  const data = kept.body !== null && typeof kept.body === 'object' && 'data' in kept.body && Array.isArray(kept.body.data) ? kept.body.data : [];
  assert.equal(data.length, 6 + 2);
});

test("the Responses stream shows LMSP's lifecycle only to a client that asks for it", async () => {
  const stream = async (headers: Record<string, string>): Promise<string[]> => {
    const { frames } = await readSse(`${ta.appliance.url}/v1/responses`, {
      method: 'POST',
      headers: { authorization: `Bearer ${alice.token ?? ''}`, 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ model: 'small', input: 'a', stream: true }),
    });
    return frames.map((f) => f.event ?? '');
  };
  const plain = await stream({});
  assert.equal(plain.at(-1), 'response.completed');
  assert.ok(!plain.includes('response.loading'), plain.join());
  const asked = await stream({ 'LMSP-Events': 'all' });
  assert.ok(asked.includes('response.loading'), asked.join());
});

test('deleting a conversation or an item is journalled, and a deleted conversation is gone for good', async () => {
  const conv = await alice.post('/v1/conversations', { items: [say('one'), say('two')] });
  const id = str(conv.body, 'id');
  const items = await alice.get(`/v1/conversations/${id}/items?order=asc`);
  const itemId = str(items.body, 'data', 0, 'id');
  assertError(await bob.delete(`/v1/conversations/${id}/items/${itemId}`), 404, 'conversation_not_found');
  assert.equal((await alice.delete(`/v1/conversations/${id}/items/${itemId}`)).status, 200);
  assert.equal((await alice.delete(`/v1/conversations/${id}`)).status, 200);
  const journal = DeletionJournal.of(ta.dataDir).read();
  assert.ok(journal.some((d) => d.kind === 'conversation_item' && d.id === itemId && d.conversation_id === id));
  assert.ok(journal.some((d) => d.kind === 'conversation' && d.id === id));
  assertError(await alice.get(`/v1/conversations/${id}`), 404, 'conversation_not_found');
  assert.equal(ta.appliance.ctx.db.prepare<[string], { n: number }>('SELECT COUNT(*) AS n FROM conversation_items WHERE conversation_id = ?').get(id)?.n, 0);
});

test('deleting a conversation deletes the responses made in it: their tasks and events, journalled, nothing readable or searchable', async () => {
  const conv = await alice.post('/v1/conversations', { items: [say('a private thing')] });
  const id = str(conv.body, 'id');
  const made = await alice.post('/v1/responses', { model: 'small', input: 'remember the secret word', conversation: id });
  assert.equal(str(made.body, 'status'), 'completed', made.text);
  const responseId = str(made.body, 'id');
  const db = ta.appliance.ctx.db;
  const count = (sql: string): number | undefined => db.prepare<[string], { n: number }>(sql).get(responseId)?.n;
  assert.equal(count('SELECT COUNT(*) AS n FROM tasks WHERE response_id = ?'), 1);
  // Another conversation's response is not touched.
  const other = await alice.post('/v1/conversations', { items: [say('keep')] });
  const kept = await alice.post('/v1/responses', { model: 'small', input: 'kept', conversation: str(other.body, 'id') });
  assert.equal((await alice.delete(`/v1/conversations/${id}`)).status, 200);
  assertError(await alice.get(`/v1/responses/${responseId}`), 404, 'response_not_found');
  assert.equal(count('SELECT COUNT(*) AS n FROM tasks WHERE response_id = ?'), 0, 'its task went');
  assert.equal(count('SELECT COUNT(*) AS n FROM task_events WHERE task_id IN (SELECT id FROM tasks WHERE response_id = ?)'), 0, 'and its events');
  const journal = DeletionJournal.of(ta.dataDir).read();
  assert.ok(
    journal.some((d) => d.kind === 'response' && d.id === responseId && d.why === 'deleted'),
    'journalled, so a restore removes it again',
  );
  assert.equal((await alice.get(`/v1/responses/${str(kept.body, 'id')}`)).status, 200);
  const found = await alice.get('/v1/conversations?q=secret');
  assert.equal(found.status, 200, found.text);
  assert.doesNotMatch(found.text, new RegExp(id));
});

test("GET /v1/conversations lists a client's own, newest first, with cursor paging", async () => {
  const carol = ta.api.withToken((await makeClient(ta.api, ['responses:write'], 'carol')).token);
  const ids: string[] = [];
  for (let i = 0; i < 3; i++) ids.push(str((await carol.post('/v1/conversations', { metadata: { n: String(i) } })).body, 'id'));
  const page = await carol.get('/v1/conversations?limit=2');
  assert.deepEqual([str(page.body, 'data', 0, 'id'), str(page.body, 'data', 1, 'id')], [ids[2], ids[1]]);
  assert.equal(field(page.body, 'has_more'), true);
  const next = await carol.get(`/v1/conversations?limit=2&after=${str(page.body, 'last_id')}`);
  assert.equal(str(next.body, 'data', 0, 'id'), ids[0]);
});

test("search (?q=) finds words said, through the index, only in the caller's own, paged; a new message is found at once", async () => {
  const dave = ta.api.withToken((await makeClient(ta.api, ['responses:write'], 'dave')).token);
  const erin = ta.api.withToken((await makeClient(ta.api, ['responses:write'], 'erin')).token);
  const made: string[] = [];
  for (let i = 0; i < 3; i++) made.push(str((await dave.post('/v1/conversations', { items: [say(`the quokka number ${i}`)] })).body, 'id'));
  await erin.post('/v1/conversations', { items: [say('a quokka of my own')] });
  const first = await dave.get('/v1/conversations?q=QUOKKA&limit=2');
  assert.equal(first.status, 200, first.text);
  assert.deepEqual([str(first.body, 'data', 0, 'id'), str(first.body, 'data', 1, 'id')], [made[2], made[1]]);
  assert.equal(field(first.body, 'has_more'), true);
  const rest = await dave.get(`/v1/conversations?q=quokka&limit=2&after=${str(first.body, 'last_id')}`);
  const restData = field(rest.body, 'data');
  assert.ok(Array.isArray(restData) && restData.length === 1 && str(rest.body, 'data', 0, 'id') === made[0], rest.text);
  assert.equal(field(rest.body, 'has_more'), false);
  // An item added now is found by the next search.
  await dave.post(`/v1/conversations/${made[0] ?? ''}/items`, { items: [say('and a wombat')] });
  assert.equal(str((await dave.get('/v1/conversations?q=wombat')).body, 'data', 0, 'id'), made[0]);
  const none = field((await dave.get('/v1/conversations?q=platypus')).body, 'data');
  assert.ok(Array.isArray(none) && none.length === 0);
});

test("a reader of every conversation (tasks:read) may not write a turn into another client's: `conversation` follows the change rule", async () => {
  const conv = await alice.post('/v1/conversations', { items: [say('mine')] });
  const id = str(conv.body, 'id');
  const reader = ta.api.withToken((await makeClient(ta.api, ['responses:write', 'tasks:read'], 'reader')).token);
  // It may read it, and refer to its items (the read rule)…
  assert.equal((await reader.get(`/v1/conversations/${id}`)).status, 200);
  // …but neither add items nor add a turn, by either route.
  assertError(await reader.post(`/v1/conversations/${id}/items`, { items: [say('injected')] }), 403, 'insufficient_scope');
  const turn = await reader.post('/v1/responses', { model: 'small', input: 'injected', conversation: id });
  assertError(turn, 403, 'insufficient_scope', 'conversation');
  assert.match(str(turn.body, 'error', 'message'), /Only the client that created/);
  // A client that cannot read it still finds nothing there.
  assertError(await bob.post('/v1/responses', { model: 'small', input: 'x', conversation: id }), 404, 'conversation_not_found');
  const items = await alice.get(`/v1/conversations/${id}/items?order=asc`);
  const data = field(items.body, 'data');
  assert.ok(Array.isArray(data) && data.length === 1, `nothing was written into it: ${items.text}`);
  // The owner and admin still can.
  assert.equal((await alice.post('/v1/responses', { model: 'small', input: 'more', conversation: id })).status, 200);
  assert.equal((await ta.api.post('/v1/responses', { model: 'small', input: 'admin too', conversation: id })).status, 200);
});
