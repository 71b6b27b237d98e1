// Durability per OS. macOS: the store asks SQLite for F_FULLFSYNC on commits and checkpoints (plain
// fsync() leaves data in the drive's cache there); elsewhere it does not. Windows: the data dir is
// under %LOCALAPPDATA%, and a data dir an earlier Sanad left under the roaming %APPDATA% is moved
// there once, whole (a real store with a row in it opens at the new place with that row), while a
// move that cannot happen leaves the data where it is and uses it there. Windows itself cannot run
// here: the paths are the platform's, the files are real.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { defaultDataDir, resolveDataDir, windowsDataDir } from '../../src/appliance/data-dir.js';
import { applyPragmas, fullFsyncPragmas, openStore } from '../../src/store/open.js';
import { readSettings, writeSettings } from '../../src/store/settings.js';
import { tempDir } from '../harness/data-dir.js';

test('macOS stores ask for fullfsync on commits and checkpoints; Linux and Windows stores do not', () => {
  assert.deepEqual(fullFsyncPragmas('linux'), []);
  assert.deepEqual(fullFsyncPragmas('win32'), []);
  const db = openStore(join(tempDir('sanad-fsync-'), 'sanad.db'));
  try {
    assert.equal(db.pragma('fullfsync', { simple: true }), 0, 'not on this Linux machine');
    applyPragmas(db, false, 'darwin');
    assert.equal(db.pragma('fullfsync', { simple: true }), 1);
    assert.equal(db.pragma('checkpoint_fullfsync', { simple: true }), 1);
    assert.equal(db.pragma('synchronous', { simple: true }), 2, 'and still synchronous = FULL');
  } finally {
    db.close();
  }
});

test('Windows: the data dir is under LOCALAPPDATA; a roaming one from an earlier Sanad is moved there once, whole', () => {
  const root = tempDir('sanad-win-');
  const env = { APPDATA: join(root, 'Roaming'), LOCALAPPDATA: join(root, 'Local') };
  assert.equal(defaultDataDir(env, 'win32'), join(root, 'Local', 'Sanad'));
  // Nothing anywhere yet: the local place, nothing made.
  assert.deepEqual(windowsDataDir(env), { dataDir: join(root, 'Local', 'Sanad'), moved: false });

  const roaming = join(root, 'Roaming', 'Sanad');
  const db = openStore(join(roaming, 'sanad.db'));
  writeSettings(db, { retention_days: 77 }, 1_800_000_000);
  db.close();
  mkdirSync(join(roaming, 'models'));
  writeFileSync(join(roaming, 'models', 'm.gguf'), 'GGUF');

  assert.equal(resolveDataDir(undefined, env, 'win32'), join(root, 'Local', 'Sanad'));
  assert.equal(existsSync(roaming), false, 'the roaming folder is gone');
  assert.ok(existsSync(join(root, 'Local', 'Sanad', 'models', 'm.gguf')), 'models moved with it');
  const moved = openStore(join(root, 'Local', 'Sanad', 'sanad.db'));
  assert.equal(readSettings(moved).retention_days, 77, 'the same store, with its rows');
  moved.close();
  // Once: the next start finds the local one and moves nothing.
  assert.deepEqual(windowsDataDir(env), { dataDir: join(root, 'Local', 'Sanad'), moved: false });
  // --data-dir and SANAD_DATA_DIR still win, and move nothing.
  assert.equal(resolveDataDir(join(root, 'elsewhere'), env, 'win32'), join(root, 'elsewhere'));
});

test('Windows: a roaming data dir that cannot be moved is used where it is, and said why', () => {
  const root = tempDir('sanad-win-');
  const env = { APPDATA: join(root, 'Roaming'), LOCALAPPDATA: join(root, 'Local') };
  const roaming = join(root, 'Roaming', 'Sanad');
  openStore(join(roaming, 'sanad.db')).close();
  // The local place cannot take a folder (a file stands where Local should be; on Windows a file
  // held open in the data dir stops the rename the same way).
  writeFileSync(join(root, 'Local'), 'not a folder');
  const r = windowsDataDir(env);
  assert.equal(r.dataDir, roaming);
  assert.equal(r.moved, false);
  assert.match(r.stayed ?? '', /ENOTDIR|EEXIST/);
  assert.ok(existsSync(join(roaming, 'sanad.db')), 'nothing lost');
});
