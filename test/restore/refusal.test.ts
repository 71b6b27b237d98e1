// Refusals: a restore writes only into an empty or absent folder apart from the live data dir.
// A non-empty target stays byte-for-byte as it was; a target inside (or around, or equal to, or
// reached by a symlink into) the live data dir is refused before anything is created. Exit 1
// with a clear sentence; 2 for a command line that says neither --list nor --target.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { startTestAppliance, type TestAppliance } from '../harness/appliance.js';
import { tempDir } from '../harness/data-dir.js';
import { runSanad } from '../harness/run-sanad.js';
import { backupNow, check, keychainEntries, restoreCli, treePicture } from './kit.js';

let t: TestAppliance;
before(async () => {
  t = await startTestAppliance();
  await backupNow(t.dataDir);
});
after(() => t.close());

test('a non-empty target is refused and left byte-for-byte as it was', async () => {
  const target = tempDir('sanad-restore-full-');
  writeFileSync(join(target, 'notes.txt'), 'mine');
  mkdirSync(join(target, 'sub'));
  writeFileSync(join(target, 'sub', 'sanad.db'), 'not a database');
  const picture = treePicture(target);

  const out = await restoreCli(t.dataDir, ['--target', target]);
  assert.equal(out.ran.code, 1);
  assert.equal(out.ok, false);
  assert.equal(check(out, 'target:empty').ok, false);
  assert.match(check(out, 'target:empty').detail, /is not empty \(2 entries\).*Nothing in it was touched/);
  assert.ok(!out.checks.some((c) => c.name === 'snapshot:found'), 'refused before the repository was opened');
  assert.deepEqual(treePicture(target), picture);

  const human = await runSanad(['restore', '--data-dir', t.dataDir, '--target', target]);
  assert.equal(human.code, 1);
  assert.equal(human.stdout, '', 'human output goes to stderr');
  assert.match(human.stderr, /✗ target:empty: .* is not empty/);
  assert.match(human.stderr, /sanad: restore failed\. Refused: /);
  assert.deepEqual(treePicture(target), picture);
  assert.deepEqual(await keychainEntries(target), { vaultKey: null, passphrase: null });
});

test('a target inside, equal to, around, or linked into the live data dir is refused and never created', async () => {
  const inside = join(t.dataDir, 'restored');
  const linkParent = tempDir('sanad-restore-link-');
  symlinkSync(t.dataDir, join(linkParent, 'live'));
  const cases: Array<[string, RegExp]> = [
    [inside, /is inside the live data dir/],
    [t.dataDir, /is the live data dir/],
    [dirname(t.dataDir), /contains the live data dir/],
    [join(linkParent, 'live', 'backups', 'x'), /is inside the live data dir/],
  ];
  const live = treePicture(join(t.dataDir, 'backups', 'staging'));
  for (const [target, why] of cases) {
    const out = await restoreCli(t.dataDir, ['--target', target]);
    assert.equal(out.ran.code, 1, target);
    const refused = check(out, 'target:outside_live');
    assert.equal(refused.ok, false);
    assert.match(refused.detail, why);
    assert.equal(out.checks.length, 1, 'nothing else was tried');
  }
  assert.ok(!existsSync(inside), 'the refused target was not created');
  assert.ok(!existsSync(join(t.dataDir, 'backups', 'x')));
  assert.deepEqual(treePicture(join(t.dataDir, 'backups', 'staging')), live, 'the live staging is as it was');
});

test('a file as target, and a folder holding only an interrupted restore, are refused', async () => {
  const file = join(tempDir('sanad-restore-file-'), 'plain');
  writeFileSync(file, 'x');
  const asFile = await restoreCli(t.dataDir, ['--target', file]);
  assert.equal(asFile.ran.code, 1);
  assert.match(check(asFile, 'target:empty').detail, /is not a folder/);

  const leftover = tempDir('sanad-restore-left-');
  mkdirSync(join(leftover, '.sanad-restore-0123456789ab'));
  const picture = treePicture(leftover);
  const out = await restoreCli(t.dataDir, ['--target', leftover]);
  assert.equal(out.ran.code, 1);
  assert.match(check(out, 'target:empty').detail, /interrupted restore.*delete .* and run the restore again/);
  assert.deepEqual(treePicture(leftover), picture);
});

test('usage: neither --list nor --target, both, or a bad generation is exit 2', async () => {
  for (const args of [[], ['--list', '--target', '/tmp/x'], ['--target', '/tmp/x', '--generation', 'latest']]) {
    const ran = await runSanad(['restore', '--data-dir', t.dataDir, ...args]);
    assert.equal(ran.code, 2, `${args.join(' ')}: ${ran.stderr}`);
    assert.match(ran.stderr, /sanad help/);
  }
});
