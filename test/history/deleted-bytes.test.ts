// "Deleted" holds for the bytes, not just the rows. A response created with an Idempotency-Key and
// then deleted, and a `store: false` answer sent with a key, leave their text in no file of the
// next generation (its files restored by restic and scanned byte for byte) and not in the live
// store's file; a replay of either key is a 409 that says why. A kept response's text, made the
// same way, is found by the same scan: the scan can see what it looks for. The generation's store has
// no free page and no pairing code that was live while it was made.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { str } from '../harness/api.js';
import { startTestAppliance, type TestAppliance } from '../harness/appliance.js';
import { tempDir } from '../harness/data-dir.js';
import { backupNow, localTarget } from '../drill/kit.js';
import { storePath } from '../../src/files/data-dir-layout.js';

let t: TestAppliance | null = null;
after(async () => {
  await t?.close();
});

/** Every file under `dir` but the models (a GGUF's vocabulary could hold any short text). */
function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return filesUnder(path);
    return name.endsWith('.gguf') ? [] : [path];
  });
}

function holders(files: string[], text: string): string[] {
  const needle = Buffer.from(text, 'utf8');
  return files.filter((f) => readFileSync(f).includes(needle));
}

test('a deleted response and a store: false answer, both sent with Idempotency-Key, are in no byte of the next generation, and their keys do not bring them back', async () => {
  t = await startTestAppliance();
  const app = t.api;
  const create = (input: string, key: string, extra: Record<string, unknown> = {}) =>
    app.post('/v1/responses', { model: 'tiny', input, max_output_tokens: 32, ...extra }, { 'idempotency-key': key });

  // One token of answer: the test model's answers do not depend on the question, so a long kept
  // answer could hold the very text of the deleted one.
  const kept = await create('kept-marker-quartz-falcon-7319', 'key-kept', { max_output_tokens: 1 });
  assert.equal(kept.status, 200, kept.text);
  const deleted = await create('deleted-marker-amber-otter-5521', 'key-deleted');
  assert.equal(deleted.status, 200, deleted.text);
  const deletedOutput = str(deleted.body, 'output', 0, 'content', 0, 'text');
  const unstored = await create('unstored-marker-cobalt-heron-8846', 'key-unstored', { store: false });
  assert.equal(unstored.status, 200, unstored.text);

  // A replay before the deletion is a replay (the control): same answer, marked as replayed.
  const replayed = await create('deleted-marker-amber-otter-5521', 'key-deleted');
  assert.equal(replayed.headers.get('idempotent-replayed'), 'true');
  assert.equal(str(replayed.body, 'id'), str(deleted.body, 'id'));

  assert.equal((await app.delete(`/v1/responses/${str(deleted.body, 'id')}`)).status, 200);

  const again = await create('deleted-marker-amber-otter-5521', 'key-deleted');
  assert.equal(again.status, 409, again.text);
  assert.equal(str(again.body, 'error', 'code'), 'idempotent_answer_deleted');
  assert.match(str(again.body, 'error', 'message'), /has since been deleted, and so was its answer; send it again with a new key/);
  const notStored = await create('unstored-marker-cobalt-heron-8846', 'key-unstored', { store: false });
  assert.equal(notStored.status, 409, notStored.text);
  assert.equal(str(notStored.body, 'error', 'code'), 'idempotent_answer_not_stored');
  assert.match(str(notStored.body, 'error', 'message'), /store: false, so its answer was never kept and cannot be replayed/);

  // A pairing code that is live while the backup runs: a credential of minutes, never a backup's.
  const code = await app.post('/admin/pairing-codes', { scopes: ['models:read'], ttl_s: 600 });
  assert.equal(code.status, 201, code.text);

  // The next generation, as restic gives it back.
  const outcome = await backupNow(t.appliance.ctx);
  const snapshot = outcome.repositories.find((r) => r.name === 'local')?.snapshot_id;
  assert.ok(snapshot);
  const { target, deps } = await localTarget(t.appliance.ctx);
  const restored = tempDir('sanad-bytes-');
  await deps.restic.restore(target, snapshot, { target: restored });
  const files = filesUnder(restored);
  assert.ok(
    files.some((f) => f.endsWith('sanad.db')),
    `the generation's store is among ${files.join(', ')}`,
  );

  assert.deepEqual(
    holders(files, 'kept-marker-quartz-falcon-7319').map((f) => f.endsWith('sanad.db')),
    [true],
    'the scan finds a kept response in the store',
  );
  assert.deepEqual(holders(files, 'deleted-marker-amber-otter-5521'), [], 'the deleted request is in no file');
  assert.ok(deletedOutput.length >= 16, `an output long enough to look for: ${JSON.stringify(deletedOutput)}`);
  assert.ok(!str(kept.body, 'output', 0, 'content', 0, 'text').includes(deletedOutput));
  assert.deepEqual(holders(files, deletedOutput), [], 'the deleted answer is in no file');
  assert.deepEqual(holders(files, 'unstored-marker-cobalt-heron-8846'), [], 'the store: false request is in no file');

  const store = files.find((f) => f.endsWith('sanad.db')) ?? '';
  const copy = new Database(store, { readonly: true });
  const codes = copy.prepare<[], { n: number }>('SELECT count(*) AS n FROM pairing_codes').get()?.n;
  const freePages = copy.pragma('freelist_count', { simple: true });
  copy.close();
  assert.equal(codes, 0, 'no pairing code in the generation');
  assert.equal(freePages, 0, "no free page in the generation's store (VACUUMed)");
  assert.equal(t.appliance.ctx.writer.prepare<[], { n: number }>('SELECT count(*) AS n FROM pairing_codes').get()?.n, 1, 'the live code is still there');

  // The live store's own file, once its WAL is checkpointed into it: the pages were zeroed.
  t.appliance.ctx.writer.pragma('wal_checkpoint(TRUNCATE)');
  const live = [storePath(t.dataDir)];
  assert.deepEqual(holders(live, 'kept-marker-quartz-falcon-7319').length, 1);
  assert.deepEqual(holders(live, 'deleted-marker-amber-otter-5521'), [], 'secure_delete zeroed the deleted rows');
  assert.deepEqual(holders(live, 'unstored-marker-cobalt-heron-8846'), []);
});
