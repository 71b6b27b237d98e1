// `sanad backup now` end to end, beside a running service: a generation to the local repository
// and a REST offsite (rclone serve restic). Offsite down: local still succeeds, exit 3, an alert;
// offsite back: the next run succeeds there and resolves the alert. The vault key is in the
// snapshot and nowhere in staging; an unchanged large model is not read again.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { runSanad } from '../../harness/run-sanad.js';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openAlerts } from '../../../src/store/alerts.js';
import { addRepository } from '../../../src/repository/repositories.js';
import { systemClock } from '../../../src/clock.js';
import { field } from '../../harness/api.js';
import { startTestAppliance, type TestAppliance } from '../../harness/appliance.js';
import { tempDir } from '../../harness/data-dir.js';
import { freePort, RestServer } from './rest-server.js';

let t: TestAppliance | null = null;
let rest: RestServer | null = null;
after(async () => {
  await rest?.stop();
  await t?.close();
});

const sanad = (args: string[]): ReturnType<typeof runSanad> => runSanad(args);

function repoResult(out: unknown, name: string): unknown {
  const list = field(out, 'repositories');
  assert.ok(Array.isArray(list));
  return list.find((r: unknown) => field(r, 'name') === name);
}

test('backup now: local + REST offsite, offsite down then back', async () => {
  t = await startTestAppliance();
  const { writer: db } = t.appliance.ctx;
  rest = new RestServer(tempDir(), await freePort());
  await rest.start();
  addRepository(db, t.appliance.ctx.secrets.vault, { name: 'offsite', type: 'rest', location: rest.url }, systemClock);
  // A model big enough that reading it again would show: the tiny GGUF plus 24 MiB of random bytes.
  const model = db.prepare<[], { path: string }>("SELECT path FROM models WHERE id = 'tiny'").get()?.path ?? '';
  const bigModel = join(tempDir(), 'big.gguf');
  writeFileSync(bigModel, Buffer.concat([readFileSync(model), randomBytes(24 * 1024 * 1024)]));
  assert.equal((await t.api.post('/admin/models', { path: bigModel, id: 'big' })).status, 201);
  await t.api.post('/v1/responses', { model: 'tiny', input: 'hello', max_output_tokens: 8 });
  const d = ['--data-dir', t.dataDir, '--json'];

  const first = await sanad(['backup', 'now', ...d]);
  assert.equal(first.code, 0, first.stderr);
  const out1: unknown = JSON.parse(first.stdout);
  assert.equal(typeof field(out1, 'generation'), 'number');
  assert.equal(field(repoResult(out1, 'local'), 'ok'), true);
  assert.equal(field(repoResult(out1, 'offsite'), 'ok'), true);
  assert.ok(Number(field(repoResult(out1, 'local'), 'summary', 'data_added')) > 20 * 1024 * 1024, 'the first run stores the model');
  const staged = join(t.dataDir, 'backups', 'staging', String(field(out1, 'generation')));
  assert.ok(existsSync(join(staged, 'manifest.json')) && existsSync(join(staged, 'sanad.db')));
  assert.ok(!existsSync(join(staged, 'vault.key')), 'the vault key left staging once it was in restic');

  // Unchanged: with the previous snapshot as parent, restic takes the models' metadata as proof
  // and does not read them again; only the new generation's files are read.
  const second = await sanad(['backup', 'now', ...d]);
  assert.equal(second.code, 0, second.stderr);
  const local2 = repoResult(JSON.parse(second.stdout), 'local');
  assert.ok(Number(field(local2, 'summary', 'files_unmodified')) >= 2, 'both model files count as unmodified');
  const read = Number(field(local2, 'summary', 'files_new')) + Number(field(local2, 'summary', 'files_changed'));
  // manifest.json, sanad.db, vault.key and deletions.jsonl: the generation's four files.
  assert.ok(read <= 4, `only the generation's own files are new (${read})`);
  assert.ok(Number(field(local2, 'summary', 'data_added')) < 2 * 1024 * 1024, 'and little is added');

  await rest.stop();
  const down = await sanad(['backup', 'now', ...d]);
  assert.equal(down.code, 3, down.stderr);
  const out3: unknown = JSON.parse(down.stdout);
  assert.equal(field(repoResult(out3, 'local'), 'ok'), true, 'an offsite failure never fails the local backup');
  assert.equal(field(repoResult(out3, 'offsite'), 'ok'), false);
  assert.ok(
    openAlerts(db).some((a) => a.key === 'backup.offsite_failed:offsite'),
    'the failure alerts',
  );

  await rest.start();
  const back = await sanad(['backup', 'now', ...d]);
  assert.equal(back.code, 0, back.stderr);
  assert.ok(!openAlerts(db).some((a) => a.key === 'backup.offsite_failed:offsite'), 'resolved once it works again');
  const staging = readdirSync(join(t.dataDir, 'backups', 'staging')).filter((n) => /^\d+$/.test(n));
  assert.equal(staging.length, 2, 'staging keeps 2 generations');
  const runs = db
    .prepare<[], { status: string }>("SELECT status FROM runs WHERE kind = 'backup' ORDER BY id")
    .all()
    .map((r) => r.status);
  assert.deepEqual(runs, ['ok', 'ok', 'partial', 'ok']);
});
