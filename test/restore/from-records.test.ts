// A restore on the machine that made the backup reads its own records (which snapshot holds the
// generation, its paths, its manifest) instead of asking restic for its list and manifest; restic
// still proves the snapshot exists and the restored manifest.json must be the recorded one. A
// record restic cannot honour (a snapshot forgotten, a record that names another manifest) is
// dropped without a trace in the checklist, and the restore asks restic as a new machine would;
// so do records that do not account for every snapshot in the repository (another machine's).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { openStore } from '../../src/store/open.js';
import { prepareDataDir, tempDir } from '../harness/data-dir.js';
import { backupNow, check, restoreCli } from './kit.js';
import { storePath } from '../../src/files/data-dir-layout.js';

function readRecord(dataDir: string, generation: number, column: 'snapshot_id'): unknown {
  const db = openStore(storePath(dataDir), { readonly: true });
  try {
    const row: unknown = db.prepare(`SELECT c.${column} AS v FROM backup_copies c JOIN runs r ON r.id = c.run_id WHERE r.generation = ?`).get(generation);
    return typeof row === 'object' && row !== null && 'v' in row ? row.v : null;
  } finally {
    db.close();
  }
}

function editRecords(dataDir: string, sql: string): number {
  const db = openStore(storePath(dataDir));
  try {
    return db.prepare(sql).run().changes;
  } finally {
    db.close();
  }
}

test("a restore on this machine uses its record of the backup; stale records fall back to restic's own list", async () => {
  const prepared = await prepareDataDir();
  try {
    const first = await backupNow(prepared.dataDir);
    const second = await backupNow(prepared.dataDir);
    const root = tempDir('sanad-records-');

    const viaRecord = await restoreCli(prepared.dataDir, ['--target', join(root, 'a')]);
    assert.equal(viaRecord.ran.code, 0, JSON.stringify(viaRecord.checks, null, 1));
    assert.equal(viaRecord.generation, second, 'the newest recorded generation');
    assert.match(check(viaRecord, 'snapshot:found').detail, /from this data dir's record of its backups/);
    assert.match(check(viaRecord, 'manifest:valid').detail, /from this data dir's record/);
    // The live vault key is the generation's: it was not dumped out of restic.
    assert.match(check(viaRecord, 'item:vault.key').detail, /this data dir's own vault key/);
    assert.equal(viaRecord.checks.filter((c) => c.name === 'snapshot:found').length, 1);

    // A recorded id that matches no snapshot there: the records no longer account for every
    // snapshot in the repository, so restic's own list decides which is newest.
    const realId = String(readRecord(prepared.dataDir, second, 'snapshot_id'));
    assert.equal(
      editRecords(
        prepared.dataDir,
        `UPDATE backup_copies SET snapshot_id = 'deadbeef' WHERE run_id = (SELECT id FROM runs WHERE kind = 'backup' AND generation = ${String(second)})`,
      ),
      1,
    );
    const unknown = await restoreCli(prepared.dataDir, ['--target', join(root, 'b')]);
    assert.equal(unknown.ran.code, 0, JSON.stringify(unknown.checks, null, 1));
    assert.equal(unknown.generation, second);
    assert.doesNotMatch(check(unknown, 'snapshot:found').detail, /record/);
    assert.match(check(unknown, 'snapshot:found').detail, /the newest data of 2 generations/);

    // A record whose manifest is not the snapshot's: restic restores the snapshot, the restored
    // manifest.json differs, and the attempt is dropped (its checks too) for restic's own list.
    editRecords(
      prepared.dataDir,
      `UPDATE backup_copies SET snapshot_id = '${realId}' WHERE run_id = (SELECT id FROM runs WHERE kind = 'backup' AND generation = ${String(second)})`,
    );
    assert.equal(
      editRecords(
        prepared.dataDir,
        `UPDATE backup_details SET manifest = replace(manifest, '"created_at": "', '"created_at": "1') WHERE run_id = (SELECT id FROM runs WHERE kind = 'backup' AND generation = ${String(second)})`,
      ),
      1,
    );
    const stale = await restoreCli(prepared.dataDir, ['--target', join(root, 'c')]);
    assert.equal(stale.ran.code, 0, JSON.stringify(stale.checks, null, 1));
    assert.equal(stale.generation, second);
    assert.doesNotMatch(check(stale, 'snapshot:found').detail, /record/);
    assert.equal(stale.checks.filter((c) => c.name === 'snapshot:found').length, 1, 'the dropped attempt left no check behind');
    assert.equal(stale.checks.filter((c) => c.name === 'manifest:valid').length, 1);
    assert.ok(stale.checks.every((c) => c.ok));

    // The older generation's record is still good and is used when asked for by number.
    const older = await restoreCli(prepared.dataDir, ['--target', join(root, 'd'), '--generation', String(first)]);
    assert.equal(older.ran.code, 0, JSON.stringify(older.checks, null, 1));
    assert.match(check(older, 'snapshot:found').detail, /as asked\): .*from this data dir's record/);
  } finally {
    prepared.cleanup();
  }
});
