// The deletion journal is written ahead: a real `sanad serve` deleting responses is SIGKILLed in the
// tick its first delete answer arrives, with more deletes in flight. Afterwards every response
// that is gone from the store (answered or not) is in the journal, every journal line but a torn
// last one parses, and the restarted service appends after a torn line without gluing onto it.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import Database from 'better-sqlite3';
import { appendFileSync, readFileSync } from 'node:fs';
import { parseJournal } from '../../src/store/deletion-journal.js';
import { str } from '../harness/api.js';
import { killAllServices, prepareCrashDataDir, startService } from './crash-kit.js';
import { journalPath, storePath } from '../../src/files/data-dir-layout.js';

after(killAllServices);

const COUNT = 30;

function idsInStore(dataDir: string): Set<string> {
  const db = new Database(storePath(dataDir), { readonly: true });
  try {
    return new Set(
      db
        .prepare<[], { id: string }>('SELECT id FROM responses')
        .all()
        .map((r) => r.id),
    );
  } finally {
    db.close();
  }
}

test('SIGKILL in the middle of deletes: every response gone from the store is in the journal', { timeout: 120_000 }, async () => {
  const { dataDir, adminToken } = await prepareCrashDataDir();
  let service = await startService(dataDir, adminToken);
  const ids: string[] = [];
  for (let i = 0; i < COUNT; i++) {
    const r = await service.api.post('/v1/responses', { model: 'tiny', input: `number ${i}`, max_output_tokens: 2 });
    assert.equal(r.status, 200, r.text);
    ids.push(str(r.body, 'id'));
  }
  let killed = false;
  const answered: string[] = [];
  await Promise.allSettled(
    ids.map(async (id) => {
      const res = await fetch(`${service.url}/v1/responses/${id}`, { method: 'DELETE', headers: { authorization: `Bearer ${adminToken}` } });
      if (res.status === 200) answered.push(id);
      if (res.status === 200 && !killed) {
        killed = true;
        void service.kill(); // SIGKILL in this tick
      }
    }),
  );
  await service.kill();
  assert.ok(answered.length >= 1, 'a delete was answered before the kill');

  const left = idsInStore(dataDir);
  const text = readFileSync(journalPath(dataDir), 'utf8');
  const journalled = new Set(parseJournal(text).map((d) => d.id));
  const gone = ids.filter((id) => !left.has(id));
  assert.ok(gone.length >= answered.length, 'everything answered is gone');
  for (const id of answered) assert.ok(!left.has(id), `${id} was answered deleted but is still in the store`);
  for (const id of gone) assert.ok(journalled.has(id), `${id} is gone from the store but not in the journal`);
  const lines = text.split('\n').filter((l) => l !== '');
  assert.ok(
    lines.slice(0, -1).every((l) => parseJournal(l).length === 1),
    'every line but possibly the last is whole',
  );

  // A torn last line (a crash mid-write), then the restarted service deletes one more.
  appendFileSync(journalPath(dataDir), '{"kind":"response","id":"resp_torn');
  service = await startService(dataDir, adminToken);
  const survivor = ids.find((id) => left.has(id));
  const extra = survivor ?? str((await service.api.post('/v1/responses', { model: 'tiny', input: 'one more', max_output_tokens: 2 })).body, 'id');
  assert.equal((await service.api.request('DELETE', `/v1/responses/${extra}`)).status, 200);
  const after = parseJournal(readFileSync(journalPath(dataDir), 'utf8'));
  assert.ok(
    after.some((d) => d.id === extra),
    'the new deletion is journalled on a line of its own, after the torn one',
  );
  await service.kill();
});
