// A generation made while the service writes: the copy passes integrity_check and holds one
// moment's state (ledger invariants, foreign keys); the manifest matches the files it names.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { systemClock } from '../../../src/clock.js';
import { makeGeneration, type GenerationProgress } from '../../../src/backup/generation/make-generation.js';
import { backupTargets, listGenerations, readManifest } from '../../../src/backup/generation/staging.js';
import { removeVaultKey } from '../../../src/repository/generation/vault-key-file.js';
import { getModel } from '../../../src/store/models.js';
import type { Db } from '../../../src/store/open.js';
import { str, type Api } from '../../harness/api.js';
import { startTestAppliance } from '../../harness/appliance.js';
import { prepareDataDir } from '../../harness/data-dir.js';
import { addFiller, assertLedgerConsistent, integrity, openCopy, sha256Of } from './kit.js';

async function startBackground(api: Api): Promise<string> {
  const res = await api.post('/v1/responses', { model: 'tiny', input: 'tell me more', max_output_tokens: 200, background: true });
  assert.equal(res.status, 202, res.text);
  return str(res.body, 'task_id');
}

function countEvents(db: Db): number {
  return db.prepare<[], { n: number }>('SELECT count(*) AS n FROM task_events').get()?.n ?? -1;
}

test('a generation made while tasks are written is one consistent moment', async (t) => {
  // No queue limit: with the copy off the event loop, the creator below fills 256 places within it.
  const prepared = await prepareDataDir({ requests_per_minute_per_client: 1_000_000, max_queued_tasks_per_client: 1_000_000, max_concurrent_generations: 2 });
  // Large enough that the online backup (copy-worker.ts: 8 MiB a step, in a worker) takes several
  // steps, with the service writing all along.
  addFiller(prepared.dataDir, 48);
  const ta = await startTestAppliance({ dataDir: prepared.dataDir, adminToken: prepared.adminToken });
  t.after(() => ta.close());
  const { writer: db } = ta.appliance.ctx;

  await Promise.all(Array.from({ length: 24 }, () => startBackground(ta.api)));
  let creating = true;
  let created = 0;
  const creator = (async () => {
    while (creating) {
      await startBackground(ta.api);
      created++;
    }
  })();

  const eventsAt: Partial<Record<'copyStart' | 'copyEnd', number>> = {};
  let copySteps = 0;
  const onProgress = (p: GenerationProgress): void => {
    if (p.step === 'copying_store') {
      copySteps++;
      eventsAt.copyStart ??= countEvents(db);
    }
    if (p.step === 'checking_store') eventsAt.copyEnd = countEvents(db);
  };
  const started = Date.now();
  const gen = await makeGeneration({
    dataDir: ta.dataDir,
    db,
    vaultKey: ta.appliance.ctx.secrets.master.vaultKey,
    clock: systemClock,
    appVersion: '0.1.0-test',
    onProgress,
  });
  const took = Date.now() - started;
  creating = false;
  await creator;

  t.diagnostic(
    `copy: ${copySteps} steps, events ${String(eventsAt.copyStart)} → ${String(eventsAt.copyEnd)} during it, ${created} tasks created meanwhile, ${took} ms`,
  );
  assert.ok(copySteps > 3, `the copy took ${copySteps} steps`);
  assert.ok((eventsAt.copyEnd ?? 0) > (eventsAt.copyStart ?? 0), 'the service wrote during the copy');

  const copy = openCopy(join(gen.dir, 'sanad.db'));
  try {
    assert.equal(integrity(copy), 'ok');
    assert.deepEqual(copy.pragma('foreign_key_check'), []);
    const tasks = assertLedgerConsistent(copy);
    assert.ok(tasks >= 24, `${tasks} tasks in the copy`);
    const unfinished = copy.prepare<[], { n: number }>("SELECT count(*) AS n FROM tasks WHERE status IN ('queued', 'loading', 'running')").get();
    assert.ok((unfinished?.n ?? 0) > 0, 'the copy caught tasks in flight');
  } finally {
    copy.close();
  }
  assert.deepEqual(
    (await listGenerations(ta.dataDir)).map((g) => g.epoch),
    [gen.epoch],
  );
});

test('the manifest matches the files, the vault key and the registered model', async (t) => {
  const ta = await startTestAppliance();
  t.after(() => ta.close());
  const { writer: db, secrets } = ta.appliance.ctx;
  secrets.vault.set('test.secret', 'opens with the saved key');
  const gen = await makeGeneration({ dataDir: ta.dataDir, db, vaultKey: secrets.master.vaultKey, clock: systemClock, appVersion: '0.1.0-test' });

  assert.equal(gen.dir, join(ta.dataDir, 'backups', 'staging', String(gen.epoch)));
  assert.deepEqual(await readManifest(gen.dir), gen.manifest);
  assert.equal(gen.manifest.format_version, 1);
  assert.equal(gen.manifest.generation, gen.epoch);
  assert.equal(gen.manifest.app_version, '0.1.0-test');
  assert.deepEqual(gen.manifest.items.map((i) => i.kind).sort(), ['journal', 'model', 'sqlite', 'vault_key']);
  // No SQLite -journal, WAL or shared-memory file beside the copy: a restore must find no strays.
  // deletions.jsonl is the deletion journal's copy (empty here: nothing was deleted).
  assert.deepEqual(readdirSync(gen.dir).sort(), ['deletions.jsonl', 'manifest.json', 'sanad.db', 'vault.key']);

  for (const item of gen.manifest.items) {
    if (item.kind === 'model') continue;
    const path = join(gen.dir, item.path);
    assert.equal(statSync(path).size, item.size, item.path);
    assert.equal(sha256Of(path), item.sha256, item.path);
    if (item.kind === 'sqlite') assert.ok(item.tables > 0, `${item.tables} tables`);
  }
  const keyFile = join(gen.dir, 'vault.key');
  assert.equal(statSync(keyFile).mode & 0o777, 0o600);
  assert.ok(Buffer.from(readFileSync(keyFile, 'utf8'), 'base64').equals(secrets.master.vaultKey));

  const model = gen.manifest.items.find((i) => i.kind === 'model');
  const registered = getModel(db, 'tiny');
  assert.ok(model && model.kind === 'model' && registered);
  assert.ok(isAbsolute(model.path));
  assert.deepEqual([model.model_id, model.path, model.size, model.sha256], ['tiny', registered.path, registered.size_bytes, registered.sha256]);
  assert.equal(sha256Of(model.path), model.sha256);
  assert.deepEqual(backupTargets(gen), [gen.dir, registered.path]);
  assert.deepEqual(gen.rehashedModels, []);
  assert.equal(gen.vault, 'ok');

  await removeVaultKey(gen.dir);
  assert.deepEqual(readdirSync(gen.dir).sort(), ['deletions.jsonl', 'manifest.json', 'sanad.db']);
});
