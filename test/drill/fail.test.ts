// What a drill calls FAIL (exit 1 through the CLI), each on a real generation backed up with restic:
// a database damaged before upload (its manifest describing the damaged file, so only the integrity
// check can tell), a database with no tables where the source had some, a manifest item the snapshot
// does not hold, a vault key that does not open the vault, and a flipped byte in a pack (deep).
// A repository the passphrase Sanad holds cannot open is FAIL too. A FAIL raises the critical
// `drill.failed` alert and makes /health/ready 503; the next PASS of the newest generation clears
// both. Damage seen while the repository changed under the drill is not confirmed: UNVERIFIED.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { openAlerts } from '../../src/store/alerts.js';
import { getRepository, moveLocalRepository } from '../../src/repository/repositories.js';
import { systemClock } from '../../src/clock.js';
import { drillDepsFor } from '../../src/drill/drill-deps.js';
import { drillHere } from '../../src/jobs/run-here.js';
import { silentLogger } from '../../src/log/logger.js';
import { field, str } from '../harness/api.js';
import { startTestAppliance, type TestAppliance } from '../harness/appliance.js';
import { tempDir } from '../harness/data-dir.js';
import { backupHandMade, backupNow, drillCli, flipByte, localTarget, packFiles, sha256 } from './kit.js';
import { type Manifest } from '../../src/repository/generation/manifest.js';

const open: TestAppliance[] = [];
after(async () => {
  for (const a of open) await a.close();
});

/** Replaces a manifest item's size and sha256 with those of the file as it is now. */
function describeAgain(dir: string, manifest: Manifest, path: string): Manifest {
  const data = readFileSync(join(dir, path));
  return { ...manifest, items: manifest.items.map((i) => (i.path === path ? { ...i, size: data.length, sha256: sha256(data) } : i)) };
}

test('FAIL: a damaged database, zero tables, a missing item, a wrong vault key; alert and health follow', async () => {
  const t = await startTestAppliance();
  open.push(t);
  const { ctx } = t.appliance;
  ctx.secrets.vault.set('repo/example/secret', 'sealed');
  await backupNow(ctx);
  const healthy = await drillCli(t.dataDir);
  assert.equal(healthy.ran.code, 0, healthy.ran.stdout);

  // Pages in the middle of the copy overwritten before upload; the manifest describes the damaged file.
  await backupHandMade(ctx, {
    alter: (dir, manifest) => {
      const path = join(dir, 'sanad.db');
      const data = readFileSync(path);
      randomBytes(Math.floor(data.length / 3)).copy(data, Math.floor(data.length / 3));
      writeFileSync(path, data);
      return describeAgain(dir, manifest, 'sanad.db');
    },
  });
  const damaged = await drillCli(t.dataDir);
  assert.equal(damaged.ran.code, 1, damaged.ran.stdout);
  assert.equal(damaged.verdict, 'FAIL');
  assert.equal(damaged.status('local:manifest'), 'pass', 'sizes and the manifest itself are fine');
  assert.equal(damaged.status('local:sqlite:integrity'), 'fail');
  assert.match(damaged.detail('local:sqlite:integrity'), /sanad\.db of generation \d+ is damaged/);
  assert.equal(damaged.status('local:vault:decrypt'), 'unverified', 'the vault is not opened from a damaged store');

  const alert = openAlerts(ctx.writer).find((a) => a.key === 'drill.failed');
  assert.equal(alert?.severity, 'critical');
  assert.match(alert?.message ?? '', /local:sqlite:integrity/);
  const unready = await t.api.get('/health/ready');
  assert.equal(unready.status, 503);
  assert.equal(field(unready.body, 'checks', 'drill', 'ok'), false);
  assert.match(str(unready.body, 'checks', 'drill', 'detail'), /FAILED: local:sqlite:integrity/);

  // A newer, healthy generation: the drill checks the newest, passes, and clears the alert.
  await backupNow(ctx);
  const again = await drillCli(t.dataDir);
  assert.equal(again.ran.code, 0, again.ran.stdout);
  assert.ok(!openAlerts(ctx.writer).some((a) => a.key === 'drill.failed'), 'the pass of the newest generation cleared the alert');
  assert.equal((await t.api.get('/health/ready')).status, 200);

  // Zero tables where the manifest says the source had some.
  await backupHandMade(ctx, {
    alter: (dir, manifest) => {
      rmSync(join(dir, 'sanad.db'));
      new Database(join(dir, 'sanad.db')).close();
      return describeAgain(dir, manifest, 'sanad.db');
    },
  });
  const empty = await drillCli(t.dataDir);
  assert.equal(empty.ran.code, 1, empty.ran.stdout);
  assert.match(empty.detail('local:sqlite:integrity'), /has no tables, but the source had \d+/);

  // The same empty file is no damage when the manifest says the source had no tables.
  await backupHandMade(ctx, {
    alter: (dir, manifest) => {
      rmSync(join(dir, 'sanad.db'));
      new Database(join(dir, 'sanad.db')).close();
      const m = describeAgain(dir, manifest, 'sanad.db');
      return { ...m, items: m.items.map((i) => (i.kind === 'sqlite' ? { ...i, tables: 0 } : i)) };
    },
  });
  const noneExpected = await drillCli(t.dataDir);
  assert.equal(noneExpected.status('local:sqlite:integrity'), 'pass', noneExpected.detail('local:sqlite:integrity'));

  // The model the manifest lists was not captured in the snapshot.
  await backupHandMade(ctx, { paths: (dir) => [dir] });
  const missing = await drillCli(t.dataDir);
  assert.equal(missing.ran.code, 1, missing.ran.stdout);
  assert.equal(missing.status('local:manifest'), 'fail');
  assert.match(missing.detail('local:manifest'), /\.gguf is missing/);
  assert.equal(missing.status('local:sqlite:integrity'), 'pass', 'the rest of the generation is still checked');

  // A vault key that is not the one that sealed the vault (the manifest matches the wrong key).
  await backupHandMade(ctx, {
    alter: (dir, manifest) => {
      writeFileSync(join(dir, 'vault.key'), randomBytes(32).toString('base64'));
      return describeAgain(dir, manifest, 'vault.key');
    },
  });
  const wrongKey = await drillCli(t.dataDir);
  assert.equal(wrongKey.ran.code, 1, wrongKey.ran.stdout);
  assert.equal(wrongKey.status('local:vault:decrypt'), 'fail');
  assert.match(wrongKey.detail('local:vault:decrypt'), /does not open the backup's vault/);
  assert.equal(wrongKey.status('local:sqlite:integrity'), 'pass');

  // A model registered through a symlink: the generation names the real file (restic would keep
  // only the link), so the snapshot holds the model itself and the drill passes.
  const model = ctx.writer.prepare<[], { path: string }>("SELECT path FROM models WHERE id = 'tiny'").get()?.path ?? '';
  const link = join(tempDir(), 'linked.gguf');
  symlinkSync(model, link);
  assert.equal((await t.api.post('/admin/models', { path: link, id: 'linked' })).status, 201);
  assert.equal((await backupNow(ctx)).status, 'ok');
  const linked = await drillCli(t.dataDir);
  assert.equal(linked.status('local:manifest'), 'pass', linked.ran.stdout);
  assert.equal(linked.ran.code, 0, linked.ran.stdout);
});

test('FAIL (deep): a flipped byte in a pack file', async () => {
  const t = await startTestAppliance({ settings: { drill_read_subset_total: 1 } });
  open.push(t);
  const { ctx } = t.appliance;
  await backupNow(ctx);
  const repoDir = getRepository(ctx.writer, 'local')?.location ?? '';
  const clean = await drillCli(t.dataDir, ['--deep']);
  assert.equal(clean.ran.code, 0, clean.ran.stdout);
  const pack = packFiles(repoDir)[0];
  assert.ok(pack, 'the repository has packs');
  flipByte(pack.path);
  const deep = await drillCli(t.dataDir, ['--deep']);
  assert.equal(deep.ran.code, 1, deep.ran.stdout);
  assert.equal(deep.verdict, 'FAIL');
  assert.equal(deep.status('local:read-data'), 'fail');
  assert.match(deep.detail('local:read-data'), /subset 1\/1: read \d+ of \d+ data packs, restic found damage \(Pack ID does not match/);
  assert.ok(openAlerts(ctx.writer).some((a) => a.key === 'drill.failed' && a.severity === 'critical'));
});

test('FAIL: a repository the passphrase Sanad holds cannot open', async () => {
  const t = await startTestAppliance();
  open.push(t);
  const { ctx } = t.appliance;
  await backupNow(ctx);
  // The local repository moved to a folder holding a repository made with another passphrase.
  const { target, deps } = await localTarget(ctx);
  const elsewhere = join(tempDir(), 'other repo');
  await deps.restic.init({ ...target, url: elsewhere, password: 'not-the-passphrase-sanad-holds' });
  moveLocalRepository(ctx.writer, elsewhere);
  const refused = await drillCli(t.dataDir);
  assert.equal(refused.ran.code, 1, refused.ran.stdout);
  assert.equal(refused.status('local:repo:open'), 'fail');
  assert.match(refused.detail('local:repo:open'), /passphrase for the repository "local" was refused.*unreadable with what this machine holds/);
});

test('a FAIL is not confirmed when the repository changed during the drill (a backup made between the check and its verdict)', async () => {
  const t = await startTestAppliance({ settings: { drill_read_subset_total: 1 } });
  open.push(t);
  const { ctx } = t.appliance;
  await backupNow(ctx);
  const repoDir = getRepository(ctx.writer, 'local')?.location ?? '';
  const pack = packFiles(repoDir)[0];
  assert.ok(pack);
  flipByte(pack.path);
  const deps = await drillDepsFor({ db: ctx.writer, dataDir: t.dataDir, store: ctx.secrets.store, clock: systemClock, logger: silentLogger });
  const restic = deps.restic;
  assert.ok(restic);
  // The real check, then a real backup to the same repository before the drill looks at the result.
  const wrapped = {
    ...restic,
    check: async (...args: Parameters<typeof restic.check>) => {
      const result = await restic.check(...args);
      await backupNow(ctx);
      return result;
    },
  };
  const changed = await drillHere({ ...deps, restic: wrapped }, { kind: 'deep', trigger: 'test' });
  const read = changed.checks.find((c) => c.name === 'local:read-data');
  assert.equal(read?.status, 'unverified');
  assert.match(read?.detail ?? '', /restic found damage.*but the repository changed during the drill/);
  assert.equal(changed.verdict, 'UNVERIFIED');

  const quiet = await drillHere(deps, { kind: 'deep', trigger: 'test' });
  assert.equal(quiet.verdict, 'FAIL', 'with nothing writing, the same damage is a FAIL');
});
