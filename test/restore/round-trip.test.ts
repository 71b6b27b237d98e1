// The whole promise, end to end with real processes: a running `sanad serve` with a client, a
// foreground and a background task; `sanad backup now` beside it; `sanad restore` into an empty
// folder; then `sanad serve` on the restored folder, on another port, beside the original. Every
// task, event, response, client (its token still works) and model registration is there, the
// restored store passes integrity_check, and the restored secrets are used, not new ones made.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { KeychainStore } from '../../src/secrets/keychain.js';
import { dataDirScope } from '../../src/secrets/scope.js';
import { RESTIC_PASSPHRASE, VAULT_KEY } from '../../src/secrets/secret-store.js';
import { field, str, waitFor } from '../harness/api.js';
import { prepareDataDir, tempDir } from '../harness/data-dir.js';
import { startServiceProcess } from '../harness/service-process.js';
import { backupNow, check, keychainEntries, restoreCli } from './kit.js';
import { storePath } from '../../src/files/data-dir-layout.js';

const QUERIES = {
  tasks: 'SELECT * FROM tasks ORDER BY id',
  task_events: 'SELECT * FROM task_events ORDER BY task_id, sequence_number',
  responses: 'SELECT * FROM responses ORDER BY id',
  clients: 'SELECT id, name, token_hash, scopes, created_at, revoked_at FROM clients ORDER BY id',
  models: 'SELECT id, format, size_bytes, sha256, architecture, context_length, created_at FROM models ORDER BY id',
};

function rows(file: string): Record<string, unknown[]> {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return Object.fromEntries(Object.entries(QUERIES).map(([k, q]) => [k, db.prepare(q).all()]));
  } finally {
    db.close();
  }
}

function integrity(file: string): string {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return String(db.pragma('integrity_check', { simple: true }));
  } finally {
    db.close();
  }
}

test('round trip: back up a serving appliance, restore into an empty folder, serve the restored folder on another port', async (t) => {
  const prepared = await prepareDataDir();
  const original = await startServiceProcess(prepared.dataDir, prepared.adminToken);
  t.after(() => original.stop());

  const made = await original.api.post('/admin/clients', { name: 'app', scopes: ['responses:write', 'tasks:read', 'models:read'] });
  assert.equal(made.status, 201, made.text);
  const token = str(made.body, 'token');
  const app = original.api.withToken(token);
  const fg = await app.post('/v1/responses', { model: 'tiny', input: 'hello', max_output_tokens: 8 });
  assert.equal(fg.status, 200, fg.text);
  const bg = await app.post('/v1/responses', { model: 'tiny', input: 'tell me more', max_output_tokens: 16, background: true });
  assert.equal(bg.status, 202, bg.text);
  const taskId = str(bg.body, 'task_id');
  await waitFor(async () => str((await app.get(`/v1/tasks/${taskId}`)).body, 'status') === 'completed', 30_000, 'the background task');
  const events = field((await app.get(`/v1/tasks/${taskId}/events?limit=1000`)).body, 'data');
  assert.ok(Array.isArray(events) && events.length > 3, 'the background task has events');

  const secret = await original.api.request('PUT', '/admin/secrets/demo', { value: 'a vault value' });
  assert.ok(secret.status < 300, secret.text);
  const generation = await backupNow(prepared.dataDir);
  const before = rows(storePath(prepared.dataDir));
  const target = join(tempDir('sanad-restore-'), 'restored');
  // This test made the backup itself: it keeps the backup's clients (their tokens work afterwards).
  const out = await restoreCli(prepared.dataDir, ['--target', target, '--keep-clients']);
  assert.equal(out.ran.code, 0, `${out.ran.stderr}\n${JSON.stringify(out.checks, null, 1)}`);
  assert.ok(out.ok && out.checks.every((c) => c.ok));
  assert.equal(out.generation, generation);
  for (const name of [
    'target:empty',
    'snapshot:found',
    'manifest:valid',
    'item:vault.key',
    'snapshot:restored',
    'item:sanad.db',
    'sqlite:integrity',
    'sqlite:tables',
    'registry:updated',
    'models:tiny',
    'vault:decrypt',
    'store:located',
    'deletions:reapplied',
    'store:sanad',
    'exposure:reset',
    'target:layout',
    'keychain:stored',
  ])
    check(out, name);
  assert.match(check(out, 'store:sanad').detail, /sanad\.db is a Sanad store of version \d+: its schema is exactly Sanad's/);
  assert.match(check(out, 'exposure:reset').detail, /paired clients? kept, as you asked; devices on the network stay off/);
  assert.match(out.ran.stdout, /"next_step":"sanad serve --data-dir [^"]*restored"/);
  assert.match(check(out, 'vault:decrypt').detail, /the backup's vault key opens the restored vault/);

  // What the restore put down, before anything serves it.
  const restoredDb = storePath(target);
  assert.equal(integrity(restoredDb), 'ok');
  assert.deepEqual(
    readdirSync(target).sort(),
    ['deletions.jsonl', 'models', 'sanad.db'],
    'a whole data dir: the store where Sanad reads it, its deletion journal, models, no -wal/-shm',
  );
  const after = rows(restoredDb);
  for (const table of Object.keys(QUERIES)) assert.deepEqual(after[table], before[table], `${table} restored as backed up`);
  const db = new Database(restoredDb, { readonly: true });
  const modelPath = db.prepare<[], { path: string }>("SELECT path FROM models WHERE id = 'tiny'").get()?.path;
  const local = db.prepare<[], { location: string }>("SELECT location FROM repositories WHERE name = 'local'").get()?.location;
  db.close();
  assert.equal(modelPath, join(target, 'models', 'tiny-1.gguf'), 'the registry points at the restored model');
  assert.equal(local, join(target, 'backups', 'restic'), 'the default local repository moves with the data dir');

  const liveSecrets = new KeychainStore(dataDirScope(prepared.dataDir));
  const restoredSecrets = await keychainEntries(target);
  assert.equal(restoredSecrets.vaultKey, await liveSecrets.get(VAULT_KEY), 'the backed-up vault key is in the keychain for the restored dir');
  assert.equal(restoredSecrets.passphrase, await liveSecrets.get(RESTIC_PASSPHRASE));

  const restored = await startServiceProcess(target, prepared.adminToken);
  t.after(() => restored.stop());
  assert.notEqual(restored.port, original.port);
  const rapp = restored.api.withToken(token);
  const models = await rapp.get('/v1/models');
  assert.equal(models.status, 200, 'the client token made before the backup works on the restored service');
  const list = field(models.body, 'data');
  assert.ok(Array.isArray(list));
  const tiny: unknown = list.find((m: unknown) => field(m, 'id') === 'tiny');
  assert.equal(field(tiny, 'status'), 'available');
  assert.equal(field(tiny, 'path'), undefined, 'a client sees no path of this machine');
  const seenByAdmin = field((await restored.api.get('/v1/models/tiny')).body, 'path');
  assert.equal(seenByAdmin, join(target, 'models', 'tiny-1.gguf'));
  assert.equal(str((await rapp.get(`/v1/tasks/${taskId}`)).body, 'status'), 'completed');
  assert.deepEqual(field((await rapp.get(`/v1/tasks/${taskId}/events?limit=1000`)).body, 'data'), events, 'every event of the background task');
  const fgAgain = await rapp.get(`/v1/responses/${str(fg.body, 'id')}`);
  assert.equal(fgAgain.status, 200, fgAgain.text);
  assert.equal(field(fgAgain.body, 'output_text'), field(fg.body, 'output_text'));
  const names = await restored.api.get('/admin/secrets');
  assert.match(names.text, /"demo"/, 'the vault came along and opens on the restored service');
  const fresh = await rapp.post('/v1/responses', { model: 'tiny', input: 'still works', max_output_tokens: 4 });
  assert.equal(fresh.status, 200, `the restored model runs: ${fresh.text}`);
  assert.deepEqual(await keychainEntries(target), restoredSecrets, 'serving the restored dir used its restored secrets, made no new ones');

  assert.equal(await restored.stop(), 0);
  assert.equal(integrity(restoredDb), 'ok');
});
