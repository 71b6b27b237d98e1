// Offsite copies over WebDAV: a real `rclone serve webdav` on loopback and a `webdav` remote in a
// temp rclone.conf. Upload, list and prune; a listing from a stopped server is an error, not an
// empty list; a failed delete raises `backup.offsite_prune_failed` and the next run retries it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openAlerts } from '../../../src/store/alerts.js';
import { PRUNE_FAILED_ALERT, sendOffsiteCopy } from '../../../src/backup/offsite-copy/index.js';
import { copiesIn, FAST_SCRYPT, makeGenerationDir, PASSPHRASE, setupDb, startWebdav, tempDir, webdavSection, writeConf } from './kit.js';
import { rcloneLsJson } from '../../../src/repository/rclone.js';

const FOLDER = 'نسخ سند/offsite copies';

test('keep N over webdav: upload, list, prune the oldest, keep the new one', async () => {
  const root = tempDir();
  const served = join(root, 'served');
  const folder = join(served, FOLDER);
  mkdirSync(folder, { recursive: true });
  for (const e of [1, 2]) writeFileSync(join(folder, `sanad-${e}.tar.gz.age`), 'old');
  const server = await startWebdav(served);
  try {
    const conf = writeConf(root, webdavSection('dav', server.port));
    const { db, clock } = setupDb();
    const staging = join(root, 'staging');
    mkdirSync(staging);
    const r = await sendOffsiteCopy({
      generationDir: makeGenerationDir(staging, 50),
      epoch: 50,
      destination: `dav:${FOLDER}`,
      passphrase: PASSPHRASE,
      keep: 2,
      rcloneConfig: conf,
      db,
      clock,
      scryptWorkFactor: FAST_SCRYPT,
    });
    assert.equal(r.pruneError, null);
    assert.deepEqual(r.deleted, ['sanad-1.tar.gz.age']);
    assert.deepEqual(copiesIn(folder), ['sanad-2.tar.gz.age', 'sanad-50.tar.gz.age']);
    const listed = await rcloneLsJson(`dav:${FOLDER}`, { config: conf });
    assert.equal(listed.find((e) => e.Name === 'sanad-50.tar.gz.age')?.Size, r.uploaded.size, 'the size reads back');
  } finally {
    await server.stop();
  }
});

test('a listing from a webdav server that went away is an error, not an empty list', async () => {
  const root = tempDir();
  const server = await startWebdav(root);
  const conf = writeConf(root, webdavSection('dav', server.port));
  await rcloneLsJson('dav:', { config: conf });
  await server.stop();
  await assert.rejects(rcloneLsJson('dav:', { config: conf }), /rclone lsjson exited with [1-9]/);
});

test('a failed delete raises the alert; the next run with the condition fixed deletes it and resolves', async () => {
  // The server serves a union remote: new uploads land in a writable upstream, the old copy lives
  // in an upstream marked read-only, so rclone's deletefile really fails (405 from the server).
  const root = tempDir();
  const writable = join(root, 'a');
  const old = join(root, 'b');
  for (const d of [writable, old]) mkdirSync(join(d, FOLDER), { recursive: true });
  writeFileSync(join(old, FOLDER, 'sanad-1.tar.gz.age'), 'old');
  const serverConf = (ro: boolean) => {
    const path = join(root, `server-${ro ? 'ro' : 'rw'}.conf`);
    writeFileSync(path, `[u]\ntype = union\nupstreams = ${writable} ${old}${ro ? ':ro' : ''}\n`);
    return path;
  };
  const { db, clock } = setupDb();
  const staging = join(root, 'staging');
  mkdirSync(staging);
  const send = (epoch: number, conf: string) =>
    sendOffsiteCopy({
      generationDir: makeGenerationDir(staging, epoch),
      epoch,
      destination: `dav:${FOLDER}`,
      passphrase: PASSPHRASE,
      keep: 1,
      rcloneConfig: conf,
      db,
      clock,
      scryptWorkFactor: FAST_SCRYPT,
    });

  let server = await startWebdav('u:', { config: serverConf(true) });
  try {
    const conf = writeConf(root, webdavSection('dav', server.port));
    const r = await send(10, conf);
    assert.deepEqual(r.deleted, []);
    assert.match(r.pruneError ?? '', /Deleting the old offsite copy sanad-1\.tar\.gz\.age .* failed/);
    const [alert] = openAlerts(db);
    assert.equal(alert?.key, PRUNE_FAILED_ALERT);
    assert.equal(alert?.severity, 'warning');
    assert.deepEqual(copiesIn(join(old, FOLDER)), ['sanad-1.tar.gz.age'], 'still there for the next run');
  } finally {
    await server.stop();
  }

  clock.advance(6 * 3600_000);
  server = await startWebdav('u:', { config: serverConf(false), port: server.port });
  try {
    const conf = writeConf(root, webdavSection('dav', server.port));
    const r = await send(20, conf);
    assert.equal(r.pruneError, null);
    assert.deepEqual(r.deleted, ['sanad-1.tar.gz.age', 'sanad-10.tar.gz.age'], 'the leftover goes first, then the one beyond keep');
    assert.deepEqual(copiesIn(join(old, FOLDER)), []);
    assert.deepEqual(copiesIn(join(writable, FOLDER)), ['sanad-20.tar.gz.age']);
    assert.equal(openAlerts(db).length, 0, 'the alert is resolved');
  } finally {
    await server.stop();
  }
});
