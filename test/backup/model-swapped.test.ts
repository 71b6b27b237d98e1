// A registered model file swapped for a link to another file (an SSH key, say) is not followed
// into the backup: only a file with the registered size and fingerprint is backed up; otherwise
// the model is left out with an alert, which resolves once the real file is back.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, readFileSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openAlerts } from '../../src/store/alerts.js';
import { modelChangedKey } from '../../src/backup/run-backup.js';
import { ModelRegistry } from '../../src/engine/registry.js';
import { startTestAppliance } from '../harness/appliance.js';
import { tempDir } from '../harness/data-dir.js';
import { tinyModelPath } from '../fixtures/tiny-model.js';

function manifestPaths(dataDir: string, generation: number | null): string[] {
  assert.ok(generation !== null);
  const manifest: unknown = JSON.parse(readFileSync(join(dataDir, 'backups', 'staging', String(generation), 'manifest.json'), 'utf8'));
  assert.ok(typeof manifest === 'object' && manifest !== null && 'items' in manifest && Array.isArray(manifest.items));
  return manifest.items.map((i: unknown) => (typeof i === 'object' && i !== null && 'path' in i ? String(i.path) : ''));
}

test('a model swapped for a symlink to a secret is left out of the backup with an alert; back in once restored', async (t) => {
  const ta = await startTestAppliance();
  t.after(() => ta.close());
  const ctx = ta.appliance.ctx;
  const dir = tempDir('sanad-swap-');
  const model = join(dir, 'mine.gguf');
  copyFileSync(await tinyModelPath(1), model);
  await new ModelRegistry(ctx.writer, ctx.clock).add(model, 'mine');
  const secret = join(tempDir('sanad-ssh-'), 'id_ed25519');
  writeFileSync(secret, '-----BEGIN OPENSSH PRIVATE KEY-----\nnot for backups\n', { mode: 0o600 });

  renameSync(model, `${model}.real`);
  symlinkSync(secret, model);
  const swapped = await ctx.backups.run('manual');
  assert.equal(swapped.status, 'ok', swapped.error ?? '');
  const paths = manifestPaths(ctx.dataDir, swapped.generation);
  assert.ok(!paths.includes(secret) && !paths.includes(model), `the secret is not in the generation: ${paths.join(', ')}`);
  const alert = openAlerts(ctx.writer).find((a) => a.key === modelChangedKey('mine'));
  assert.ok(alert, 'an alert names the model');
  assert.match(alert.message, /no longer the one registered/);

  // The same size, other bytes: still left out (the fingerprint decides, not the size).
  const same = readFileSync(`${model}.real`);
  same[same.length - 1] = (same[same.length - 1] ?? 0) ^ 0xff;
  const forged = join(dir, 'forged.gguf');
  writeFileSync(forged, same);
  renameSync(forged, model);
  const sameSize = await ctx.backups.run('manual');
  assert.ok(!manifestPaths(ctx.dataDir, sameSize.generation).includes(model));

  renameSync(`${model}.real`, model);
  const back = await ctx.backups.run('manual');
  assert.ok(manifestPaths(ctx.dataDir, back.generation).includes(model), 'the real file is backed up again');
  assert.equal(
    openAlerts(ctx.writer).some((a) => a.key === modelChangedKey('mine')),
    false,
    'the alert resolved',
  );
});
