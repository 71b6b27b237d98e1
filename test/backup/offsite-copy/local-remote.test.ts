// Offsite copies through a real rclone `local` remote (defined in a temp rclone.conf): keep-N
// pruning oldest first, keep 0, a folder with spaces and Arabic, the uploaded table, a listing
// that failed, and destinations refused before rclone ever runs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openAlerts } from '../../../src/store/alerts.js';
import { sendOffsiteCopy } from '../../../src/backup/offsite-copy/index.js';
import { RcloneDestinationError } from '../../../src/repository/rclone-destination.js';
import { copiesIn, FAST_SCRYPT, makeGenerationDir, PASSPHRASE, setupDb, tempDir, writeConf } from './kit.js';
import { listOffsiteCopies } from '../../../src/repository/offsite-copies.js';
import { rcloneLsJson } from '../../../src/repository/rclone.js';

function localSetup(confExtra = ''): { root: string; folder: string; destination: string; conf: string; staging: string } {
  const root = tempDir();
  const folder = join(root, 'remote', 'نسخ احتياطية', 'sanad copies');
  mkdirSync(folder, { recursive: true });
  const staging = join(root, 'staging');
  mkdirSync(staging);
  const conf = writeConf(root, `[dest]\ntype = local\n${confExtra}`);
  return { root, folder, destination: `dest:${folder}`, conf, staging };
}

test('keep N deletes the oldest beyond N, oldest first, and keeps the new copy (spaces and Arabic in the folder)', async () => {
  const { folder, destination, conf, staging } = localSetup();
  const { db, clock } = setupDb();
  // Older copies already on the remote, plus a file that is not a copy and must be left alone.
  for (const e of [100, 200, 300]) writeFileSync(join(folder, `sanad-${e}.tar.gz.age`), 'old');
  writeFileSync(join(folder, 'notes.txt'), 'mine');
  const send = (epoch: number, keep: number) =>
    sendOffsiteCopy({
      generationDir: makeGenerationDir(staging, epoch),
      epoch,
      destination,
      passphrase: PASSPHRASE,
      keep,
      rcloneConfig: conf,
      db,
      clock,
      scryptWorkFactor: FAST_SCRYPT,
    });

  const first = await send(1000, 2);
  assert.equal(first.pruneError, null);
  assert.deepEqual(first.deleted, ['sanad-100.tar.gz.age', 'sanad-200.tar.gz.age'], 'oldest first');
  assert.deepEqual(copiesIn(folder), ['sanad-300.tar.gz.age', 'sanad-1000.tar.gz.age']);
  const uploadedBytes = readFileSync(join(folder, 'sanad-1000.tar.gz.age'));
  assert.equal(first.uploaded.size, uploadedBytes.length);
  const [row] = listOffsiteCopies(db, destination);
  assert.equal(row?.name, 'sanad-1000.tar.gz.age');
  assert.equal(row?.size, uploadedBytes.length);
  assert.equal(row?.sha256, createHash('sha256').update(uploadedBytes).digest('hex'));
  assert.equal(row?.epoch, 1000);

  clock.advance(6 * 3600_000);
  const second = await send(2000, 2);
  assert.deepEqual(second.deleted, ['sanad-300.tar.gz.age']);
  assert.deepEqual(copiesIn(folder), ['sanad-1000.tar.gz.age', 'sanad-2000.tar.gz.age']);
  assert.ok(readdirSync(folder).includes('notes.txt'), 'files that are not copies stay');
  assert.deepEqual(
    listOffsiteCopies(db, destination).map((r) => r.name),
    ['sanad-2000.tar.gz.age', 'sanad-1000.tar.gz.age'],
  );

  const third = await send(3000, 2);
  assert.deepEqual(third.deleted, ['sanad-1000.tar.gz.age']);
  assert.deepEqual(
    listOffsiteCopies(db, destination).map((r) => r.name),
    ['sanad-3000.tar.gz.age', 'sanad-2000.tar.gz.age'],
    'a pruned copy leaves the table',
  );
  assert.equal(openAlerts(db).length, 0);
});

test('keep 0 keeps every copy', async () => {
  const { folder, destination, conf, staging } = localSetup();
  const { db, clock } = setupDb();
  for (const epoch of [1, 2, 3, 4]) {
    const r = await sendOffsiteCopy({
      generationDir: makeGenerationDir(staging, epoch),
      epoch,
      destination,
      passphrase: PASSPHRASE,
      keep: 0,
      rcloneConfig: conf,
      db,
      clock,
      scryptWorkFactor: FAST_SCRYPT,
    });
    assert.deepEqual(r.deleted, []);
    assert.equal(r.pruneError, null);
  }
  assert.deepEqual(
    copiesIn(folder),
    [1, 2, 3, 4].map((e) => `sanad-${e}.tar.gz.age`),
  );
});

test('a listing that failed prunes nothing, even though rclone printed a listing', async () => {
  // copy_links makes rclone stat a dangling symlink while listing: it prints the JSON of the other
  // files and then exits non-zero. Uploading into the folder still works.
  const { folder, destination, conf, staging } = localSetup('copy_links = true\n');
  const { db, clock } = setupDb();
  for (const e of [1, 2, 3]) writeFileSync(join(folder, `sanad-${e}.tar.gz.age`), 'old');
  symlinkSync('/nonexistent/sanad-target', join(folder, 'dangling'));
  await assert.rejects(rcloneLsJson(destination, { config: conf }), /rclone lsjson exited with [1-9]/);

  const r = await sendOffsiteCopy({
    generationDir: makeGenerationDir(staging, 10),
    epoch: 10,
    destination,
    passphrase: PASSPHRASE,
    keep: 1,
    rcloneConfig: conf,
    db,
    clock,
    scryptWorkFactor: FAST_SCRYPT,
  });
  assert.deepEqual(r.deleted, []);
  assert.match(r.pruneError ?? '', /not pruned because the listing failed/);
  assert.deepEqual(
    copiesIn(folder),
    [1, 2, 3, 10].map((e) => `sanad-${e}.tar.gz.age`),
    'nothing was deleted',
  );
  assert.equal(listOffsiteCopies(db, destination).length, 1, 'the upload itself is recorded');
});

test('inline backends and option-like destinations are refused before anything runs', async () => {
  const { staging, root } = localSetup();
  const { db, clock } = setupDb();
  const generationDir = makeGenerationDir(staging, 5);
  const tempParent = join(root, 'tmp');
  mkdirSync(tempParent);
  for (const destination of [`:local:${root}/x`, '-vv:x', 'dest,copy_links=true:/tmp']) {
    await assert.rejects(
      // A binary that does not exist: had rclone been started, the error would say it was not found.
      sendOffsiteCopy({ generationDir, epoch: 5, destination, passphrase: PASSPHRASE, db, clock, rcloneBinary: join(root, 'no-rclone'), tempParent }),
      (err: unknown) => err instanceof RcloneDestinationError,
      destination,
    );
  }
  assert.deepEqual(readdirSync(tempParent), [], 'nothing was even encrypted');
  await assert.rejects(rcloneLsJson(':local:/tmp', { binary: join(root, 'no-rclone') }), RcloneDestinationError);
});
