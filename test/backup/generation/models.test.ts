// Model files in a generation: an unchanged model (size and mtime as registered) is not read, so
// its manifest sha256 is the registry's even when its bytes were swapped behind the registry's
// back; a moved mtime makes the run hash it again and say so; a missing model is named, not fatal.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { copyFileSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { ManualClock } from '../../../src/clock.js';
import { makeGeneration } from '../../../src/backup/generation/make-generation.js';
import type { ManifestItem, ModelManifestItem } from '../../../src/repository/generation/manifest.js';
import { ModelRegistry } from '../../../src/engine/registry.js';
import { getModel } from '../../../src/store/models.js';
import { openStore } from '../../../src/store/open.js';
import { prepareDataDir } from '../../harness/data-dir.js';
import { scratchPath, tinyModelPath } from '../../fixtures/tiny-model.js';
import { sha256Of } from './kit.js';
import { storePath } from '../../../src/files/data-dir-layout.js';

test('an unchanged model is not re-read; a changed one is re-hashed, and left out when its content is no longer the registered one', async (t) => {
  const prepared = await prepareDataDir();
  const db = openStore(storePath(prepared.dataDir));
  t.after(() => db.close());
  const clock = new ManualClock(Date.now());
  const mine = await scratchPath(`mine-${process.pid}.gguf`);
  const gone = await scratchPath(`gone-${process.pid}.gguf`);
  copyFileSync(await tinyModelPath(1), mine);
  copyFileSync(await tinyModelPath(1), gone);
  // Whole seconds: utimes goes through a float of seconds, which cannot put back every millisecond.
  const mtimeS = Math.floor(Date.now() / 1000) - 3600;
  utimesSync(mine, mtimeS, mtimeS);
  const registry = new ModelRegistry(db, clock);
  await registry.add(mine, 'mine');
  await registry.add(gone, 'gone');
  rmSync(gone);
  const registered = getModel(db, 'mine');
  assert.ok(registered);

  // New bytes, same size, mtime put back: only a read of the file could notice.
  const original = readFileSync(mine);
  const bytes = readFileSync(mine);
  bytes.fill(0x5a, bytes.length - 4096);
  writeFileSync(mine, bytes);
  utimesSync(mine, mtimeS, mtimeS);
  assert.equal(Math.floor(statSync(mine).mtimeMs), registered.mtime_ms);
  const actual = sha256Of(mine);
  assert.notEqual(actual, registered.sha256);

  const make = () => makeGeneration({ dataDir: prepared.dataDir, db, vaultKey: randomBytes(32), clock, appVersion: 'test' });
  const modelItem = (items: readonly ManifestItem[], id: string): ModelManifestItem | undefined =>
    items.find((i): i is ModelManifestItem => i.kind === 'model' && i.model_id === id);

  const first = await make();
  assert.equal(modelItem(first.manifest.items, 'mine')?.sha256, registered.sha256, 'the registry sha256, not the file read');
  assert.deepEqual(first.rehashedModels, []);
  assert.deepEqual(first.missingModels, ['gone']);
  assert.equal(modelItem(first.manifest.items, 'gone'), undefined);
  assert.ok(modelItem(first.manifest.items, 'tiny'), 'the harness model is there too');

  // A moved mtime (same size) is a change the run must look at.
  utimesSync(mine, mtimeS + 5, mtimeS + 5);
  clock.advance(1_000);
  const second = await make();
  // Its content is no longer the registered model's (sha256 ${actual}): left out, reported.
  assert.equal(modelItem(second.manifest.items, 'mine'), undefined);
  assert.deepEqual(second.changedModels, ['mine']);
  assert.deepEqual(second.rehashedModels, []);
  assert.ok(second.epoch > first.epoch);

  // The registered bytes back, with a moved mtime: re-hashed, found the same, backed up.
  writeFileSync(mine, original);
  utimesSync(mine, mtimeS + 9, mtimeS + 9);
  clock.advance(1_000);
  const third = await make();
  assert.equal(modelItem(third.manifest.items, 'mine')?.sha256, registered.sha256);
  assert.deepEqual(third.rehashedModels, ['mine']);
  assert.deepEqual(third.changedModels, []);
  assert.notEqual(actual, registered.sha256);
});
