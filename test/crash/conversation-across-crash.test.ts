// A conversation across a crash: `sanad serve` is SIGKILLed while a turn of a conversation is being
// generated. The store it leaves holds the conversation as it was before that turn (never half of
// it); after the restart the turn is failed (on_restart fail), the conversation goes on with the
// next turn, and a chain of previous_response_id made before the crash continues too.
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { TINY_MODEL_ANSWER } from '../../src/demo/tiny-model.js';
import { field, num, str, type Api } from '../harness/api.js';
import { addDemoModel } from '../harness/data-dir.js';
import { killAllServices, prepareCrashDataDir, startService, taskStatus, waitGenerating } from './crash-kit.js';
import { STORE_FILE } from '../../src/files/data-dir-layout.js';

after(killAllServices);

function textsOf(body: unknown): string[] {
  const data = field(body, 'data');
  assert.ok(Array.isArray(data));
  return data.map((item: unknown) => {
    const content = field(item, 'content');
    assert.ok(Array.isArray(content));
    return content.map((p: unknown) => str(p, 'text')).join('');
  });
}

async function items(api: Api, conversation: string): Promise<string[]> {
  const res = await api.get(`/v1/conversations/${conversation}/items?order=asc&limit=100`);
  assert.equal(res.status, 200, res.text);
  return textsOf(res.body);
}

test('SIGKILL mid-turn: the conversation is as it was before the turn, and goes on after the restart', async () => {
  const prepared = await prepareCrashDataDir();
  await addDemoModel(prepared.dataDir);
  let service = await startService(prepared.dataDir, prepared.adminToken);
  const conv = await service.api.post('/v1/conversations', { items: [{ role: 'user', content: 'Hello.' }] });
  const id = str(conv.body, 'id');
  const first = await service.api.post('/v1/responses', { model: 'demo', input: 'First turn.', conversation: id });
  assert.equal(str(first.body, 'status'), 'completed', first.text);
  const chained = await service.api.post('/v1/responses', { model: 'demo', input: 'A chain begins.' });
  assert.deepEqual(await items(service.api, id), ['Hello.', 'First turn.', TINY_MODEL_ANSWER]);

  // The endless model: this turn is still generating when the process dies.
  const long = await service.api.post('/v1/responses', {
    model: 'tiny',
    input: 'Second turn, cut off.',
    conversation: id,
    background: true,
    max_output_tokens: 4000,
  });
  assert.equal(long.status, 202, long.text);
  const taskId = str(long.body, 'task_id');
  await waitGenerating(service.api, [taskId], 8);
  await service.kill();

  // The store exactly as the dead process left it: the turn is not in the conversation, not even in part.
  const raw = new Database(join(prepared.dataDir, STORE_FILE), { readonly: true });
  try {
    const kept = raw.prepare<[string], { data: string }>('SELECT data FROM conversation_items WHERE conversation_id = ? ORDER BY position').all(id);
    assert.equal(kept.length, 3);
    assert.ok(
      kept.every((r) => !r.data.includes('Second turn')),
      'no item of the cut-off turn was written',
    );
  } finally {
    raw.close();
  }

  service = await startService(prepared.dataDir, prepared.adminToken);
  const after = await taskStatus(service.api, taskId);
  assert.equal(after.status, 'failed');
  assert.equal(after.error_code, 'server_restarted');
  assert.deepEqual(await items(service.api, id), ['Hello.', 'First turn.', TINY_MODEL_ANSWER]);

  const third = await service.api.post('/v1/responses', { model: 'demo', input: 'Third turn.', conversation: id });
  assert.equal(str(third.body, 'status'), 'completed', third.text);
  assert.deepEqual(await items(service.api, id), ['Hello.', 'First turn.', TINY_MODEL_ANSWER, 'Third turn.', TINY_MODEL_ANSWER]);
  // Its prompt held the whole conversation before it.
  assert.ok(num(third.body, 'usage', 'input_tokens') > num(first.body, 'usage', 'input_tokens') + 10);

  const continued = await service.api.post('/v1/responses', { model: 'demo', input: 'And the chain goes on.', previous_response_id: str(chained.body, 'id') });
  assert.equal(str(continued.body, 'status'), 'completed', continued.text);
  assert.equal(str(continued.body, 'previous_response_id'), str(chained.body, 'id'));
  assert.ok(num(continued.body, 'usage', 'input_tokens') > num(chained.body, 'usage', 'input_tokens') + 10);
});
