// restic reads --exclude/--include as glob patterns; the driver's restore takes plain paths and
// escapes them. A data dir whose path holds `[1]` and `*` must still keep its vault key out of
// the restore (unescaped, `[1]` would be a character class and the key would be written).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { backup, dumpText, restore } from '../../src/repository/restic/index.js';
import { literalPattern } from '../../src/repository/restic/restore.js';
import { resticFixture } from '../repository/restic/fixture.js';

test('restore excludes a literal path even when it holds glob characters', async (t) => {
  const f = await resticFixture();
  t.after(() => f.cleanup());
  const repo = await f.newRepo();
  const dir = await f.dataDir('sanad [1]*?', { 'vault.key': 'secret-key', 'sanad.db': 'db' });
  const snap = await backup(f.rt, repo, [dir], { tags: ['sanad'], host: hostname() });
  const out = join(f.dir, 'out');
  await restore(f.rt, repo, snap.snapshotId, { target: out, exclude: [join(dir, 'vault.key')] });
  assert.equal(readFileSync(join(out, dir, 'sanad.db'), 'utf8'), 'db');
  assert.ok(!existsSync(join(out, dir, 'vault.key')), 'the vault key was not written');
  assert.equal(await dumpText(f.rt, repo, snap.snapshotId, join(dir, 'vault.key')), 'secret-key', 'dump reads it into memory instead');
  assert.equal(literalPattern('/a/b[1]/*?\\x'), '/a/b\\[1]/\\*\\?\\\\x');
  await assert.rejects(restore(f.rt, repo, snap.snapshotId, { target: out, include: ['/a'], exclude: ['/b'] }), /either paths to include or paths to exclude/);
});
