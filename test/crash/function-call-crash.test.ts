// SIGKILL while the model writes a forced function call (its arguments under the call's grammar),
// then a restart: no half call was stored (a call is written only with the completion, in its
// transaction), and each task follows its on_restart policy to one whole call.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import type { OnRestart } from '../../src/tasks/types.js';
import { field, str, waitFor } from '../harness/api.js';
import { eventLog, killAllServices, prepareCrashDataDir, readCrashedStore, startService, taskStatus, waitAllTerminal } from './crash-kit.js';
import { STORE_FILE } from '../../src/files/data-dir-layout.js';

after(killAllServices);

const TOOL = {
  type: 'function',
  name: 'write_story',
  parameters: { type: 'object', properties: { story: { type: 'string' } }, required: ['story'], additionalProperties: false },
};

test('(SIGKILL) mid-call: nothing of the call is stored; fail fails, retry and resume each end with one call', { timeout: 120_000 }, async () => {
  const { dataDir, adminToken } = await prepareCrashDataDir({ max_concurrent_generations: 3 });
  const first = await startService(dataDir, adminToken);
  const tasks = new Map<OnRestart, { taskId: string; responseId: string }>();
  try {
    for (const policy of ['fail', 'retry', 'resume'] as const) {
      // The endless test model fills the story string to the token limit: a long call to kill.
      const res = await first.api.post('/v1/responses', {
        model: 'tiny',
        input: 'Tell a story.',
        background: true,
        on_restart: policy,
        max_output_tokens: 1500,
        tools: [TOOL],
        tool_choice: 'required',
      });
      assert.equal(res.status, 202, res.text);
      tasks.set(policy, { taskId: str(res.body, 'task_id'), responseId: str(res.body, 'id') });
    }
    await waitFor(
      async () => {
        for (const { taskId } of tasks.values()) if ((await taskStatus(first.api, taskId)).status !== 'running') return false;
        return true;
      },
      30_000,
      'all three calls being written',
    );
    // Well inside the calls (1500 tokens take seconds here), not at their start.
    await new Promise((r) => setTimeout(r, 400));
  } finally {
    await first.kill();
  }

  const found = readCrashedStore(dataDir);
  const db = new Database(join(dataDir, STORE_FILE), { readonly: true, fileMustExist: true });
  try {
    for (const [policy, { taskId, responseId }] of tasks) {
      assert.equal(found.get(taskId)?.status, 'running', `${policy}: killed while running`);
      const row = db
        .prepare<[string], { output_items: string | null; output_text: string | null }>('SELECT output_items, output_text FROM responses WHERE id = ?')
        .get(responseId);
      assert.deepEqual(row, { output_items: null, output_text: null }, `${policy}: no call, no text stored before the completion`);
      assert.ok(
        !found.get(taskId)?.events.some((e) => e.type.startsWith('response.function_call') || e.type === 'response.output_text.delta'),
        `${policy}: no call event and no text either`,
      );
    }
  } finally {
    db.close();
  }

  const second = await startService(dataDir, adminToken);
  try {
    await waitAllTerminal(
      second.api,
      [...tasks.values()].map((t) => t.taskId),
    );
    for (const [policy, { taskId, responseId }] of tasks) {
      const events = await eventLog(second.api, taskId);
      const status = await taskStatus(second.api, taskId);
      const r = await second.api.get(`/v1/responses/${responseId}`);
      if (policy === 'fail') {
        assert.equal(status.status, 'failed');
        assert.equal(status.error_code, 'server_restarted');
        assert.deepEqual(field(r.body, 'output'), [], 'fail: no call');
        continue;
      }
      assert.equal(status.status, 'completed', policy);
      const output = field(r.body, 'output');
      assert.ok(Array.isArray(output) && output.length === 1, `${policy}: one output item, ${JSON.stringify(output)}`);
      assert.equal(str(output[0], 'type'), 'function_call');
      assert.equal(str(output[0], 'name'), 'write_story');
      // Cut by the token limit (the endless model never closes the string): a whole call item, marked incomplete.
      assert.equal(str(output[0], 'status'), 'incomplete');
      assert.equal(events.filter((e) => e.type === 'response.function_call_arguments.done').length, 1, `${policy}: one call's events`);
      assert.equal(events.find((e) => e.type === 'response.function_call_arguments.done')?.data.arguments, str(output[0], 'arguments'));
      assert.match(str(output[0], 'arguments'), /^\{"story":"/);
      assert.equal(events.at(-1)?.type, 'response.completed');
    }
  } finally {
    await second.stop();
  }
});
