// Failures become typed errors: wrong password, no repository, missing restic, and the exit-code
// table (a pure function: 0.17's codes cannot be produced by the 0.14 installed here).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ResticError, classifyExit, findRestic, parseVersion, snapshots, isInitialized, init } from '../../../src/repository/restic/index.js';
import { resticFixture } from './fixture.js';

test('a wrong password is wrong_password, and the message does not contain it', async (t) => {
  const fx = await resticFixture();
  t.after(() => fx.cleanup());
  const repo = await fx.newRepo();
  const bad = { ...repo, password: 'not-the-right-passphrase-99' };
  const error = await snapshots(fx.rt, bad).then(
    () => null,
    (e: unknown) => e,
  );
  assert.ok(error instanceof ResticError);
  assert.equal(error.kind, 'wrong_password');
  assert.equal(error.exitCode, 1);
  assert.match(error.message, /passphrase .* was refused; enter the passphrase from the recovery kit\.$/);
  assert.ok(!error.message.includes(bad.password) && !error.stderrTail.join('').includes(bad.password));
  await assert.rejects(isInitialized(fx.rt, bad), { kind: 'wrong_password' }, 'a wrong password does not look like "no repository"');
});

test('a missing repository is no_repo; init over an existing one fails', async (t) => {
  const fx = await resticFixture();
  t.after(() => fx.cleanup());
  await assert.rejects(
    snapshots(fx.rt, fx.repo('nowhere')),
    (e: unknown) => e instanceof ResticError && e.kind === 'no_repo' && /no restic repository/.test(e.message),
  );
  const repo = await fx.newRepo('here');
  await assert.rejects(init(fx.rt, repo), { kind: 'failed' });
});

test('restic missing: a configured path that does not exist, or a PATH without restic → missing_binary', async (t) => {
  const empty = await mkdtemp(join(tmpdir(), 'sanad-no-restic-'));
  t.after(() => rm(empty, { recursive: true, force: true }));
  await assert.rejects(
    findRestic({ configuredPath: join(empty, 'restic') }),
    (e: unknown) => e instanceof ResticError && e.kind === 'missing_binary' && /apt install restic/.test(e.message) && e.message.includes(empty),
  );
  await assert.rejects(
    findRestic({ searchPath: empty, bundledPath: join(empty, 'bundled', 'restic') }),
    (e: unknown) => e instanceof ResticError && e.kind === 'missing_binary' && /^restic is not installed/.test(e.message),
  );
  // A configured path that is not restic at all is missing_binary too, not a crash.
  await assert.rejects(findRestic({ configuredPath: '/bin/true' }), { kind: 'missing_binary' });
  const found = await findRestic();
  assert.equal(found.version.length, 3);
});

test('version parsing and the exit-code table (0.14 text classification, ≥ 0.17 codes)', () => {
  assert.deepEqual(parseVersion('restic 0.14.0 compiled with go1.19.8 on linux/amd64'), [0, 14, 0]);
  assert.deepEqual(parseVersion('restic 0.17.3-dev (compiled manually) compiled with go1.23'), [0, 17, 3]);
  assert.equal(parseVersion('rclone v1.60'), null);
  const v14 = [0, 14, 0];
  const v17 = [0, 17, 0];
  assert.equal(classifyExit(0, [], v14), null);
  assert.equal(classifyExit(3, [], v14), 'partial');
  assert.equal(classifyExit(1, ['Fatal: wrong password or no key found'], v14), 'wrong_password');
  assert.equal(
    classifyExit(1, ['Fatal: unable to open config file: stat x/config: no such file or directory', 'Is there a repository at the following location?'], v14),
    'no_repo',
  );
  assert.equal(classifyExit(1, ['unable to create lock in backend: repository is already locked by PID 1 on vm'], v14), 'locked');
  assert.equal(classifyExit(1, ['something else'], v14), 'failed');
  assert.equal(classifyExit(10, [], v17), 'no_repo');
  assert.equal(classifyExit(11, [], v17), 'locked');
  assert.equal(classifyExit(12, [], v17), 'wrong_password');
  assert.equal(classifyExit(10, [], v14), 'failed', '0.14 never meant 10 as "no repository"');
  assert.equal(classifyExit(42, [], v17), 'failed');
  assert.equal(classifyExit(null, [], v17), 'failed');
});
