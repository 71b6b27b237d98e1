// "Newest" means the newest data (the generation's epoch), never the newest snapshot time: an old
// generation sent again later (here: generation A backed up once more, an hour after B) is listed
// after B, and a restore without --generation restores B. --generation A restores A.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { backupDepsFor } from '../../src/backup/backup-deps.js';
import { getRepository } from '../../src/repository/repositories.js';
import { toResticRepo } from '../../src/repository/restic-target.js';
import { systemClock } from '../../src/clock.js';
import { silentLogger } from '../../src/log/logger.js';
import { field, str } from '../harness/api.js';
import { startTestAppliance, type TestAppliance } from '../harness/appliance.js';
import { tempDir } from '../harness/data-dir.js';
import { runSanad } from '../harness/run-sanad.js';
import { backupNow, restoreCli } from './kit.js';
import { storePath } from '../../src/files/data-dir-layout.js';
import { SNAPSHOT_TAGS } from '../../src/repository/generation/manifest.js';

let t: TestAppliance | null = null;
after(() => t?.close());

function hasResponse(dataDir: string, id: string): boolean {
  const db = new Database(storePath(dataDir), { readonly: true });
  try {
    return db.prepare('SELECT 1 FROM responses WHERE id = ?').get(id) !== undefined;
  } finally {
    db.close();
  }
}

test('newest data wins over newest snapshot time', async () => {
  t = await startTestAppliance();
  const { ctx } = t.appliance;
  const a = await backupNow(t.dataDir);
  const made = await t.api.post('/v1/responses', { model: 'tiny', input: 'only in B', max_output_tokens: 2 });
  assert.equal(made.status, 200, made.text);
  const onlyInB = str(made.body, 'id');
  const b = await backupNow(t.dataDir);
  assert.ok(b > a);

  // Send A again, whole (its vault key put back for the upload, as a real run has it), an hour later.
  const deps = await backupDepsFor({ db: ctx.writer, dataDir: t.dataDir, store: ctx.secrets.store, clock: systemClock, logger: silentLogger });
  const local = getRepository(ctx.writer, 'local');
  assert.ok(local);
  const aDir = join(t.dataDir, 'backups', 'staging', String(a));
  writeFileSync(join(aDir, 'vault.key'), ctx.secrets.master.vaultKey.toString('base64'), { mode: 0o600 });
  const model = ctx.writer.prepare<[], { path: string }>("SELECT path FROM models WHERE id = 'tiny'").get()?.path ?? '';
  const resent = await deps.restic.backup(toResticRepo(local, ctx.secrets.vault, deps.passphrase), [aDir, model], {
    tags: SNAPSHOT_TAGS,
    host: hostname(),
    time: new Date(Date.now() + 3600_000),
  });
  rmSync(join(aDir, 'vault.key'));

  const listed = await runSanad(['restore', '--list', '--data-dir', t.dataDir, '--json']);
  assert.equal(listed.code, 0, listed.stderr);
  const parsed: unknown = JSON.parse(listed.stdout);
  assert.ok(Array.isArray(parsed));
  const list: unknown[] = parsed;
  assert.deepEqual(
    list.map((g: unknown) => field(g, 'generation')),
    [b, a, a],
    'B first; A twice (the re-sent one first of the two)',
  );
  assert.deepEqual(Object.keys(field(list, 0) ?? {}).sort(), ['generation', 'repo', 'size_bytes', 'snapshot_id', 'time']);
  const newestTime = [...list].sort((x: unknown, y: unknown) => String(field(y, 'time')).localeCompare(String(field(x, 'time'))))[0];
  assert.equal(field(newestTime, 'generation'), a, "restic's `latest` (newest snapshot time) would have been A");
  assert.ok(String(field(list[1], 'snapshot_id')).startsWith(resent.snapshotId));

  const human = await runSanad(['restore', '--list', '--data-dir', t.dataDir]);
  assert.equal(human.code, 0);
  assert.match(human.stdout.split('\n')[1] ?? '', new RegExp(`^${b} `));

  const toB = join(tempDir('sanad-restore-'), 'b');
  const outB = await restoreCli(t.dataDir, ['--target', toB]);
  assert.equal(outB.ran.code, 0, JSON.stringify(outB.checks));
  assert.equal(outB.generation, b, 'the default is the newest data');
  assert.ok(hasResponse(toB, onlyInB));

  const toA = join(tempDir('sanad-restore-'), 'a');
  const outA = await restoreCli(t.dataDir, ['--target', toA, '--generation', String(a)]);
  assert.equal(outA.ran.code, 0, JSON.stringify(outA.checks));
  assert.equal(outA.generation, a);
  assert.ok(!hasResponse(toA, onlyInB), 'generation A is from before that response');

  const missing = await restoreCli(t.dataDir, ['--target', join(tempDir('sanad-restore-'), 'none'), '--generation', '12345']);
  assert.equal(missing.ran.code, 1);
  assert.match(missing.checks.find((c) => c.name === 'snapshot:found')?.detail ?? '', /Generation 12345 is not in the repository "local"/);
});
