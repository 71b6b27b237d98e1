// DELETE /v1/responses/{id}: refused while the task runs, then removes the response whole.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { str } from '../harness/api.js';
import { startTestAppliance } from '../harness/appliance.js';
import { assertError, makeClient, startLongTask, taskStatus, waitForStatus } from './contract.js';

test('DELETE is 409 while running, 200 once terminal, and the response, task and events are gone', async (t) => {
  const ta = await startTestAppliance();
  t.after(() => ta.close());
  const db = ta.appliance.ctx.writer;
  const { responseId, taskId } = await startLongTask(ta.api);
  await waitForStatus(db, taskId, ['running']);

  const refused = await ta.api.delete(`/v1/responses/${responseId}`);
  assertError(refused, 409, 'response_not_terminal');
  assert.equal(taskStatus(db, taskId), 'running', 'the refused delete left the task running');
  assert.ok(db.prepare('SELECT 1 FROM responses WHERE id = ?').get(responseId));

  // Another client cannot delete it, or even see it.
  const other = ta.api.withToken((await makeClient(ta.api, ['responses:write'])).token);
  assertError(await other.delete(`/v1/responses/${responseId}`), 404, 'response_not_found');

  const cancel = await ta.api.post(`/v1/responses/${responseId}/cancel`);
  assert.equal(cancel.status, 202, cancel.text);
  await waitForStatus(db, taskId, ['cancelled']);

  const deleted = await ta.api.delete(`/v1/responses/${responseId}`);
  assert.equal(deleted.status, 200, deleted.text);
  assert.deepEqual(deleted.body, { id: responseId, object: 'response.deleted', deleted: true });
  assert.equal(db.prepare('SELECT 1 FROM responses WHERE id = ?').get(responseId), undefined);
  assert.equal(db.prepare('SELECT 1 FROM tasks WHERE id = ?').get(taskId), undefined);
  assert.equal(db.prepare<[string], { n: number }>('SELECT COUNT(*) AS n FROM task_events WHERE task_id = ?').get(taskId)?.n, 0);

  assertError(await ta.api.get(`/v1/responses/${responseId}`), 404, 'response_not_found');
  assertError(await ta.api.get(`/v1/tasks/${taskId}`), 404, 'task_not_found');
  assertError(await ta.api.delete(`/v1/responses/${responseId}`), 404, 'response_not_found');
});

test('a foreground response with store: false is not kept once answered', async (t) => {
  const ta = await startTestAppliance();
  t.after(() => ta.close());
  const res = await ta.api.post('/v1/responses', { model: 'tiny', input: 'hi', max_output_tokens: 4, store: false });
  assert.equal(res.status, 200, res.text);
  const id = str(res.body, 'id');
  assert.equal(str(res.body, 'status'), 'incomplete');
  assert.equal(ta.appliance.ctx.writer.prepare('SELECT 1 FROM responses WHERE id = ?').get(id), undefined);
  assertError(await ta.api.get(`/v1/responses/${id}`), 404, 'response_not_found');
});
