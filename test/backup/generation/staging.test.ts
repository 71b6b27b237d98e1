// Staging keeps the newest 2 whole generations and no `.partial`; names only increase; the
// manifest reader refuses a missing or malformed manifest with a message that says which.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ManualClock } from '../../../src/clock.js';
import { makeGeneration } from '../../../src/backup/generation/make-generation.js';
import { listGenerations, ManifestError, pruneStaging, readManifest } from '../../../src/backup/generation/staging.js';
import { openStore } from '../../../src/store/open.js';
import { prepareDataDir } from '../../harness/data-dir.js';
import { stagingDir, storePath } from '../../../src/files/data-dir-layout.js';

test('pruneStaging keeps the newest 2 and removes every .partial', async (t) => {
  const prepared = await prepareDataDir();
  const db = openStore(storePath(prepared.dataDir));
  t.after(() => db.close());
  // A clock that never moves: names must still be unique and increasing.
  const clock = new ManualClock(1_700_000_000_000);
  const make = () => makeGeneration({ dataDir: prepared.dataDir, db, vaultKey: randomBytes(32), clock, appVersion: 'test' });
  const epochs: number[] = [];
  for (let i = 0; i < 4; i++) epochs.push((await make()).epoch);
  assert.deepEqual(epochs, [1_700_000_000, 1_700_000_001, 1_700_000_002, 1_700_000_003]);

  await make();
  const staging = stagingDir(prepared.dataDir);
  const newest = (await listGenerations(prepared.dataDir))[0];
  assert.ok(newest);
  assert.equal(newest.epoch, 1_700_000_004);

  mkdirSync(join(staging, '1700000099.partial'));
  mkdirSync(join(staging, '1600000000')); // a bare epoch without manifest.json is not a generation
  mkdirSync(join(staging, 'notes'));
  assert.deepEqual(
    (await listGenerations(prepared.dataDir)).map((g) => g.epoch),
    [1_700_000_004, 1_700_000_003, 1_700_000_002, 1_700_000_001, 1_700_000_000],
  );

  const removed = await pruneStaging(prepared.dataDir);
  assert.equal(removed.length, 4);
  assert.deepEqual(
    (await listGenerations(prepared.dataDir)).map((g) => g.epoch),
    [1_700_000_004, 1_700_000_003],
  );
  assert.deepEqual(readdirSync(staging).sort(), ['1600000000', '1700000003', '1700000004', 'notes']);
  assert.deepEqual(await pruneStaging(prepared.dataDir), [], 'a second prune has nothing to do');
});

test('readManifest refuses a missing, unparsable or malformed manifest', async (t) => {
  const prepared = await prepareDataDir();
  const db = openStore(storePath(prepared.dataDir));
  t.after(() => db.close());
  const gen = await makeGeneration({ dataDir: prepared.dataDir, db, vaultKey: randomBytes(32), clock: new ManualClock(Date.now()), appVersion: 'test' });
  const path = join(gen.dir, 'manifest.json');
  const good = readFileSync(path, 'utf8');

  const empty = join(stagingDir(prepared.dataDir), 'empty');
  mkdirSync(empty);
  await assert.rejects(readManifest(empty), (err: unknown) => err instanceof ManifestError && /no manifest\.json/.test(err.message));

  writeFileSync(path, good.slice(0, good.length / 2));
  await assert.rejects(readManifest(gen.dir), (err: unknown) => err instanceof ManifestError && /not valid JSON/.test(err.message));

  writeFileSync(path, good.replace('"format_version": 1', '"format_version": 2'));
  await assert.rejects(readManifest(gen.dir), (err: unknown) => err instanceof ManifestError && /format_version/.test(err.message));

  writeFileSync(path, good.replace(/"sha256": "[0-9a-f]{64}"/, '"sha256": "nope"'));
  await assert.rejects(readManifest(gen.dir), (err: unknown) => err instanceof ManifestError && /items\.0\.sha256/.test(err.message));

  writeFileSync(path, good);
  assert.deepEqual(await readManifest(gen.dir), gen.manifest);
});
