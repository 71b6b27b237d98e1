// A generation made by a newer Sanad, in a repository this Sanad reads: `sanad restore` refuses it
// with the sentence that names the newer version and says to restore it with that one, and writes
// nothing (no target folder, the data dir's store unchanged); `sanad drill` says the same of it
// and answers UNVERIFIED rather than calling the backup broken. Real generations, altered as a newer Sanad would write
// them and backed up with restic (drill kit), restored by the real CLI.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import Database from 'better-sqlite3';
import { sha256File } from '../../src/files/hash-file.js';
import { latestVersion } from '../../src/store/migrate.js';
import { startTestAppliance, type TestAppliance } from '../harness/appliance.js';
import { tempDir } from '../harness/data-dir.js';
import { runSanad } from '../harness/run-sanad.js';
import { backupHandMade, sha256 } from '../drill/kit.js';
import { storePath } from '../../src/files/data-dir-layout.js';

let t: TestAppliance | null = null;
after(async () => {
  await t?.close();
});

test('a generation from a newer Sanad is refused by restore with the sentence that says to use that Sanad, and nothing is written', async () => {
  t = await startTestAppliance();
  const newer = latestVersion() + 1;
  const made = await backupHandMade(t.appliance.ctx, {
    alter: async (dir, m) => {
      const file = join(dir, 'sanad.db');
      const db = new Database(file);
      db.pragma(`user_version = ${newer}`);
      db.close();
      const h = await sha256File(file);
      return { ...m, items: m.items.map((i) => (i.kind === 'sqlite' ? { ...i, size: h.bytes, sha256: h.sha256 } : i)) };
    },
  });
  const dataDir = t.dataDir;
  await t.close();
  t = null;
  const before = sha256(readFileSync(storePath(dataDir)));

  const target = join(tempDir('sanad-newer-'), 'restored');
  const ran = await runSanad(['restore', '--target', target, '--generation', String(made.epoch), '--data-dir', dataDir]);
  assert.notEqual(ran.code, 0, ran.stdout);
  assert.match(ran.stderr + ran.stdout, new RegExp(`written by a newer Sanad \\(store version ${newer}\\); restore it with that version`));
  assert.equal(existsSync(target), false, 'no target folder is left');
  assert.equal(sha256(readFileSync(storePath(dataDir))), before, "the data dir's store is unchanged");

  const drill = await runSanad(['drill', '--data-dir', dataDir]);
  assert.equal(drill.code, 2, `UNVERIFIED (exit 2), not FAIL: ${drill.stdout}`);
  assert.match(drill.stdout + drill.stderr, new RegExp(`newer Sanad \\(store version ${newer}\\)`), 'the drill names the newer version');
});
