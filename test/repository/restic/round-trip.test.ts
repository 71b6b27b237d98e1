// init → backup → snapshots with the real restic, the summary fields, progress, keys and check.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { backup, check, isInitialized, snapshots, listKeys, addKey, removeKey, type BackupProgress } from '../../../src/repository/restic/index.js';
import { resticFixture } from './fixture.js';

test('init, backup, snapshots: a round trip with the summary and progress', async (t) => {
  const fx = await resticFixture();
  t.after(() => fx.cleanup());
  const repo = fx.repo();
  assert.equal(await isInitialized(fx.rt, repo), false);
  await fx.newRepo();
  assert.equal(await isInitialized(fx.rt, repo), true);

  const small = await fx.dataDir('gen-1', { 'one.txt': 'one\n', 'two.txt': 'two\n', 'three.txt': 'three\n' });
  const big = await fx.bigFile('model', 48);
  const progress: BackupProgress[] = [];
  const first = await backup(fx.rt, repo, [small, big], {
    tags: ['sanad', 'generation'],
    host: 'sanad-test',
    time: new Date('2025-03-01T10:00:00Z'),
    onProgress: (p) => progress.push(p),
    progressPerSecond: 30,
  });
  assert.match(first.snapshotId, /^[0-9a-f]{8,64}$/);
  assert.equal(first.partial, false);
  assert.equal(first.summary.files_new, 4);
  assert.equal(first.summary.files_changed, 0);
  assert.equal(first.summary.files_unmodified, 0);
  assert.equal(first.summary.total_files_processed, 4);
  assert.equal(first.summary.total_bytes_processed, 48 * (1 << 20) + 4 + 4 + 6);
  assert.ok(first.summary.data_added >= 48 * (1 << 20), 'random data is stored in full');
  assert.ok(progress.length >= 1, 'progress callbacks arrive');
  assert.ok(progress.every((p) => p.percent >= 0 && p.percent <= 1));
  assert.ok(
    progress.some((p) => p.total_files === 4 || p.bytes_done > 0),
    'progress carries real counts',
  );

  const second = await backup(fx.rt, repo, [small, big], { tags: ['sanad', 'generation'], host: 'sanad-test', time: new Date('2025-03-01T16:00:00Z') });
  assert.equal(second.summary.files_unmodified, 4, 'an unchanged tree is not re-read');
  assert.ok(second.summary.data_added < 1 << 20);

  const list = await snapshots(fx.rt, repo, { tags: ['sanad'] });
  assert.equal(list.length, 2);
  const [a, b] = list;
  assert.ok(a && b);
  assert.ok(a.id.startsWith(first.snapshotId));
  assert.deepEqual(a.tags.sort(), ['generation', 'sanad']);
  assert.equal(a.hostname, 'sanad-test');
  assert.deepEqual([...a.paths].sort(), [small, big].sort());
  assert.equal(new Date(a.time).toISOString(), '2025-03-01T10:00:00.000Z', '--time is honoured in UTC');
  assert.equal((await snapshots(fx.rt, repo, { tags: ['other'] })).length, 0);
  assert.deepEqual(await check(fx.rt, repo), { ok: true });
  const subset = await check(fx.rt, repo, { readDataSubset: '1/3' });
  assert.ok(subset.ok && subset.read && subset.read.totalPacks > 0 && subset.read.packs <= subset.read.totalPacks, JSON.stringify(subset));
});

test('keys: add a new passphrase, open with it, remove the old key', async (t) => {
  const fx = await resticFixture();
  t.after(() => fx.cleanup());
  const repo = await fx.newRepo();
  const [oldKey] = await listKeys(fx.rt, repo);
  assert.ok(oldKey?.current);
  const newPassword = 'new-passphrase-for-rotation-42';
  const newId = await addKey(fx.rt, repo, newPassword);
  assert.notEqual(newId, oldKey.id);
  const rotated = { ...repo, password: newPassword };
  await removeKey(fx.rt, rotated, oldKey.id);
  const keys = await listKeys(fx.rt, rotated);
  assert.deepEqual(
    keys.map((k) => k.id),
    [newId],
  );
  await assert.rejects(listKeys(fx.rt, repo), { kind: 'wrong_password' });
});
