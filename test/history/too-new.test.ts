// A generation from a newer Sanad is refused in one sentence, whether its manifest format or its
// store's schema is newer; a damaged store copy is unreadable, not opened; each leaves no scratch.
// Real generations, altered before upload and backed up with restic as Sanad does (drill kit).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { sha256File } from '../../src/files/hash-file.js';
import { GenerationTooNewError, GenerationUnreadableError, openGenerationCopy } from '../../src/history/generation-copy.js';
import { listSnapshotGenerations } from '../../src/restore/snapshot-generations.js';
import { latestVersion } from '../../src/store/migrate.js';
import { startTestAppliance, type TestAppliance } from '../harness/appliance.js';
import { backupHandMade, flipByte, localTarget } from '../drill/kit.js';
import { historyDir } from '../../src/files/data-dir-layout.js';

let t: TestAppliance | null = null;
after(async () => {
  await t?.close();
});

async function open(app: TestAppliance, epoch: number): Promise<unknown> {
  const { target, deps } = await localTarget(app.appliance.ctx);
  const g = (await listSnapshotGenerations(deps.restic, target)).find((x) => x.generation === epoch);
  assert.ok(g, `generation ${epoch} listed`);
  return openGenerationCopy({ restic: deps.restic, repo: target, g, dataDir: app.dataDir }).then(
    async (o) => {
      await o.close();
      return o;
    },
    (err: unknown) => err,
  );
}

test('a newer manifest format, a newer store schema and a damaged store each get their sentence, and no scratch stays', async () => {
  t = await startTestAppliance();
  const newerFormat = await backupHandMade(t.appliance.ctx, { alter: (_dir, m) => Object.assign(m, { format_version: 2 }) }); // what a newer Sanad would write
  const err1 = await open(t, newerFormat.epoch);
  assert.ok(err1 instanceof GenerationTooNewError, String(err1));
  assert.match(
    err1.message,
    new RegExp(`^Generation ${newerFormat.epoch} was made by a newer Sanad \\(manifest format 2; this Sanad reads 1\\); install that Sanad`),
  );

  const newerStore = await backupHandMade(t.appliance.ctx, {
    alter: async (dir, m) => {
      const file = join(dir, 'sanad.db');
      const db = new Database(file);
      db.pragma(`user_version = ${latestVersion() + 1}`);
      db.close();
      const h = await sha256File(file);
      return { ...m, items: m.items.map((i) => (i.kind === 'sqlite' ? { ...i, size: h.bytes, sha256: h.sha256 } : i)) };
    },
  });
  const err2 = await open(t, newerStore.epoch);
  assert.ok(err2 instanceof GenerationTooNewError, String(err2));
  assert.match(err2.message, new RegExp(`store version ${latestVersion() + 1}`));

  const damaged = await backupHandMade(t.appliance.ctx, { alter: (dir) => flipByte(join(dir, 'sanad.db')) });
  const err3 = await open(t, damaged.epoch);
  assert.ok(err3 instanceof GenerationUnreadableError, String(err3));
  assert.match(err3.message, /cannot be read: .*sha256 .* the manifest says .* Run `sanad drill --deep`/);

  assert.deepEqual(readdirSync(historyDir(t.dataDir)), [], 'every failed read removed its scratch folder');
  assert.equal(statSync(historyDir(t.dataDir)).mode & 0o777, 0o700);
});
