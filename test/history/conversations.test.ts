// Conversations in the time machine: a generation holds them (counts, diff), a restore of an older
// generation removes again every conversation and item deleted since, and a deleted conversation
// is brought back from a generation only when asked to undelete, with its items and responses.
// Real restic, the real CLI, the real service.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BringBackResult, GenerationDiff, GenerationSummary } from '../../src/contract/history.js';
import { parseJournal } from '../../src/store/deletion-journal.js';
import { field, str, type Api } from '../harness/api.js';
import { startTestAppliance, type TestAppliance } from '../harness/appliance.js';
import { tempDir } from '../harness/data-dir.js';
import { finishingModelPath } from '../fixtures/tiny-model.js';
import { backupNow, check, restoreCli } from '../restore/kit.js';
import { journalPath, storePath } from '../../src/files/data-dir-layout.js';

let t: TestAppliance | null = null;
after(async () => {
  await t?.close();
});

async function conversation(api: Api, texts: string[]): Promise<string> {
  const conv = await api.post('/v1/conversations', { items: texts.map((content) => ({ role: 'user', content })) });
  assert.equal(conv.status, 200, conv.text);
  return str(conv.body, 'id');
}

async function itemIds(api: Api, id: string): Promise<string[]> {
  const res = await api.get(`/v1/conversations/${id}/items?order=asc&limit=100`);
  const data = field(res.body, 'data');
  assert.ok(Array.isArray(data));
  return data.map((i: unknown) => str(i, 'id'));
}

function conversationsIn(file: string): { conversations: string[]; items: string[] } {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return {
      conversations: db
        .prepare<[], { id: string }>('SELECT id FROM conversations ORDER BY id')
        .all()
        .map((r) => r.id),
      items: db
        .prepare<[], { id: string }>('SELECT id FROM conversation_items ORDER BY conversation_id, position')
        .all()
        .map((r) => r.id),
    };
  } finally {
    db.close();
  }
}

test('conversations in generations: counted, compared, deleted for good through a restore, brought back on undelete', async () => {
  t = await startTestAppliance();
  const { api } = t;
  assert.equal((await api.post('/admin/models', { path: await finishingModelPath(), id: 'demo' })).status, 201);
  const kept = await conversation(api, ['keep me']);
  const turn = await api.post('/v1/responses', { model: 'demo', input: 'a turn', conversation: kept });
  assert.equal(str(turn.body, 'status'), 'completed', turn.text);
  const doomed = await conversation(api, ['forget this conversation']);
  const [firstItem, ...restItems] = await itemIds(api, kept);
  assert.ok(firstItem);
  const generation = await backupNow(t.dataDir);

  const summary = GenerationSummary.parse((await api.get(`/admin/generations/${generation}`)).body);
  assert.equal(summary.counts.conversations, 2);

  // After the backup: one conversation deleted, one item deleted, the kept one goes on.
  assert.equal((await api.delete(`/v1/conversations/${doomed}`)).status, 200);
  assert.equal((await api.delete(`/v1/conversations/${kept}/items/${firstItem}`)).status, 200);
  const later = await api.post('/v1/responses', { model: 'demo', input: 'a later turn', conversation: kept });
  assert.equal(str(later.body, 'status'), 'completed');
  const journal = readFileSync(journalPath(t.dataDir), 'utf8');
  assert.doesNotMatch(journal, /forget this conversation|keep me/, 'the journal holds ids, never content');

  const diff = GenerationDiff.parse((await api.get(`/admin/generations/${generation}/diff?to=live`)).body);
  assert.deepEqual(diff.conversations, { added: [], removed: [doomed], changed: [kept] });

  // The older generation restored: what was deleted since is removed again before anything opens it.
  const here = join(tempDir('sanad-restore-'), 'here');
  const out = await restoreCli(t.dataDir, ['--target', here, '--generation', String(generation)]);
  assert.equal(out.ran.code, 0, JSON.stringify(out.checks, null, 1));
  assert.match(check(out, 'deletions:reapplied').detail, /^2 deletions applied again/);
  const restored = conversationsIn(storePath(here));
  assert.deepEqual(restored.conversations, [kept]);
  assert.deepEqual(restored.items, restItems, 'the deleted item stays deleted; the later turn was never in this generation');
  assert.deepEqual(
    parseJournal(readFileSync(journalPath(here), 'utf8'))
      .map((d) => d.kind)
      .sort(),
    ['conversation', 'conversation_item'],
  );

  // Bringing the deleted conversation back: refused until asked to undelete, then whole.
  const refused = BringBackResult.parse((await api.post(`/admin/generations/${generation}/bring-back`, { responses: [doomed] })).body);
  assert.deepEqual(refused.skipped, [{ id: doomed, reason: 'deleted' }]);
  const back = BringBackResult.parse((await api.post(`/admin/generations/${generation}/bring-back`, { responses: [doomed], undelete: true })).body);
  assert.deepEqual(back.brought_back, [doomed]);
  assert.equal((await itemIds(api, doomed)).length, 1);
  assert.doesNotMatch(readFileSync(journalPath(t.dataDir), 'utf8'), new RegExp(doomed), 'the undelete took it off the journal');
  const again = BringBackResult.parse((await api.post(`/admin/generations/${generation}/bring-back`, { responses: [doomed] })).body);
  assert.deepEqual(again.skipped, [{ id: doomed, reason: 'exists' }]);
});
