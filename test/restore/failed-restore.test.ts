// --models-in-place, and what a failed check leaves behind: nothing. A model kept in place is
// verified where it is (a changed one fails with a clear detail), and a snapshot whose manifest
// does not match its store fails at item:sanad.db; either way the target is back to absent or
// empty, and the keychain holds nothing for it.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { appendFileSync, copyFileSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { backupDepsFor } from '../../src/backup/backup-deps.js';
import { getRepository } from '../../src/repository/repositories.js';
import { toResticRepo } from '../../src/repository/restic-target.js';
import { systemClock } from '../../src/clock.js';
import { silentLogger } from '../../src/log/logger.js';
import { startTestAppliance, type TestAppliance } from '../harness/appliance.js';
import { tempDir } from '../harness/data-dir.js';
import { tinyModelPath } from '../fixtures/tiny-model.js';
import { backupNow, check, keychainEntries, restoreCli } from './kit.js';
import { storePath } from '../../src/files/data-dir-layout.js';
import { SNAPSHOT_TAGS } from '../../src/repository/generation/manifest.js';

let t: TestAppliance;
let copyPath: string;
let generation: number;
before(async () => {
  t = await startTestAppliance();
  // A model of this test's own, so changing it cannot disturb the shared tiny model.
  copyPath = join(tempDir('sanad-model-copy-'), 'copy.gguf');
  copyFileSync(await tinyModelPath(1), copyPath);
  const added = await t.api.post('/admin/models', { path: copyPath, id: 'copy' });
  assert.equal(added.status, 201, added.text);
  generation = await backupNow(t.dataDir);
});
after(() => t.close());

const none = { vaultKey: null, passphrase: null };

test('--models-in-place verifies the models where they are and keeps the registry pointing there', async () => {
  const target = join(tempDir('sanad-restore-'), 'in-place');
  const out = await restoreCli(t.dataDir, ['--target', target, '--models-in-place']);
  assert.equal(out.ran.code, 0, JSON.stringify(out.checks, null, 1));
  assert.match(check(out, `item:${copyPath}`).detail, /^at its original place: [\d.]+ [kMG]?B, sha256/);
  assert.deepEqual(
    readdirSync(target),
    ['deletions.jsonl', 'sanad.db'],
    'no models folder: nothing was restored for them (the store and its deletion journal only)',
  );
  const db = new Database(storePath(target), { readonly: true });
  const path = db.prepare<[], { path: string }>("SELECT path FROM models WHERE id = 'copy'").get()?.path;
  db.close();
  assert.equal(path, copyPath);
  assert.match(check(out, 'models:copy').detail, new RegExp(`registered at ${copyPath}`));
});

test('a model changed since the backup fails --models-in-place; the target is removed or emptied, no keychain entry', async () => {
  const original = readFileSync(copyPath);
  appendFileSync(copyPath, 'x');
  try {
    const absent = join(tempDir('sanad-restore-'), 'absent');
    const out = await restoreCli(t.dataDir, ['--target', absent, '--models-in-place']);
    assert.equal(out.ran.code, 1);
    const failed = check(out, `item:${copyPath}`);
    assert.equal(failed.ok, false);
    assert.match(failed.detail, /model "copy" kept in place \(--models-in-place\): .* is \d+ bytes, the manifest says \d+\. Put back the file/);
    assert.ok(!out.checks.some((c) => c.name === 'keychain:stored'));
    assert.ok(!existsSync(absent), 'the target the restore created is gone again');
    assert.deepEqual(await keychainEntries(absent), none);

    const empty = tempDir('sanad-restore-empty-');
    const out2 = await restoreCli(t.dataDir, ['--target', empty, '--models-in-place']);
    assert.equal(out2.ran.code, 1);
    assert.deepEqual(readdirSync(empty), [], 'an empty target is empty again');
    assert.deepEqual(await keychainEntries(empty), none);
    assert.match(JSON.stringify(out2.ran.stdout), /was emptied again; nothing was stored in the keychain/);
  } finally {
    writeFileSync(copyPath, original);
  }
});

test('a snapshot whose manifest does not match its store fails at item:sanad.db and leaves nothing', async () => {
  // A newer generation whose manifest names another sha256 for sanad.db, sent with the sanad tag.
  const staging = join(t.dataDir, 'backups', 'staging');
  const bad = generation + 1000;
  const badDir = join(staging, String(bad));
  cpSync(join(staging, String(generation)), badDir, { recursive: true });
  const manifest: unknown = JSON.parse(readFileSync(join(badDir, 'manifest.json'), 'utf8'));
  const text = JSON.stringify(manifest)
    .replace(/"path":"sanad.db","size":(\d+),"sha256":"[0-9a-f]{64}"/, `"path":"sanad.db","size":$1,"sha256":"${'0'.repeat(64)}"`)
    .replace(`"generation":${generation}`, `"generation":${bad}`);
  assert.notEqual(text, JSON.stringify(manifest));
  writeFileSync(join(badDir, 'manifest.json'), text);
  writeFileSync(join(badDir, 'vault.key'), t.appliance.ctx.secrets.master.vaultKey.toString('base64'), { mode: 0o600 });
  const { ctx } = t.appliance;
  const deps = await backupDepsFor({ db: ctx.writer, dataDir: t.dataDir, store: ctx.secrets.store, clock: systemClock, logger: silentLogger });
  const local = getRepository(ctx.writer, 'local');
  assert.ok(local);
  await deps.restic.backup(toResticRepo(local, ctx.secrets.vault, deps.passphrase), [badDir], { tags: SNAPSHOT_TAGS, host: hostname() });

  const parent = tempDir('sanad-restore-');
  const target = join(parent, 'deep', 'restored');
  const out = await restoreCli(t.dataDir, ['--target', target]);
  assert.equal(out.ran.code, 1);
  assert.equal(out.generation, bad, 'the newest data was tried');
  assert.equal(check(out, 'snapshot:restored').ok, true);
  const failed = check(out, 'item:sanad.db');
  assert.equal(failed.ok, false);
  assert.match(failed.detail, /has sha256 [0-9a-f]{12}…, the manifest says 000000000000…/);
  assert.equal(out.checks.at(-1)?.name, 'item:sanad.db', 'nothing ran after the failed check');
  assert.deepEqual(readdirSync(parent), [], 'the target and the parent folders the restore made are gone');
  assert.deepEqual(await keychainEntries(target), none);
  mkdirSync(target, { recursive: true });
  assert.deepEqual(await keychainEntries(target), none);
});
