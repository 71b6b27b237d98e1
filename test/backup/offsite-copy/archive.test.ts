// The archive on its own: a private 0700 dir with a 0600 file, regular files only, never the
// vault key (not even through a symlink), and gone after removeArchive.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, statSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { createArchive, removeArchive } from '../../../src/backup/offsite-copy/index.js';
import { FAST_SCRYPT, makeGenerationDir, PASSPHRASE, tempDir } from './kit.js';

test('a private file holding the generation without its vault key', async () => {
  const root = tempDir();
  const staging = join(root, 'staging');
  mkdirSync(staging);
  const generationDir = makeGenerationDir(staging, 77);
  symlinkSync(join(generationDir, 'vault.key'), join(generationDir, 'key-link'));
  const archive = await createArchive({ generationDir, epoch: 77, passphrase: PASSPHRASE, scryptWorkFactor: FAST_SCRYPT, tempParent: root });
  assert.equal(statSync(archive.dir).mode & 0o777, 0o700);
  assert.equal(statSync(archive.path).mode & 0o777, 0o600);
  assert.equal(statSync(archive.path).size, archive.size);
  assert.equal(archive.name, 'sanad-77.tar.gz.age');
  assert.deepEqual(archive.files, ['sanad-77/manifest.json', 'sanad-77/sanad.db']);
  await removeArchive(archive);
  assert.ok(!existsSync(archive.dir));
  await assert.rejects(createArchive({ generationDir, epoch: 77, passphrase: '' }), /passphrase is empty/);
});
