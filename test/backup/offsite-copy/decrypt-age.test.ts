// The uploaded copy opens with Debian's `age` and the passphrase (age's default scrypt work factor,
// as `age -p` would make it), and the tar inside holds manifest.json and sanad.db but never vault.key.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { sendOffsiteCopy } from '../../../src/backup/offsite-copy/index.js';
import { makeGenerationDir, PASSPHRASE, setupDb, tempDir, writeConf } from './kit.js';

test('the uploaded copy decrypts with the age binary and holds no vault key', async () => {
  const root = tempDir();
  const folder = join(root, 'remote');
  const staging = join(root, 'staging');
  mkdirSync(folder);
  mkdirSync(staging);
  const conf = writeConf(root, '[dest]\ntype = local\n');
  const { db, clock } = setupDb();
  const generationDir = makeGenerationDir(staging, 1234, 300_000);
  const r = await sendOffsiteCopy({ generationDir, epoch: 1234, destination: `dest:${folder}`, passphrase: PASSPHRASE, rcloneConfig: conf, db, clock });
  const uploaded = join(folder, 'sanad-1234.tar.gz.age');
  assert.equal(statSync(uploaded).size, r.uploaded.size);
  assert.ok(readFileSync(uploaded).subarray(0, 40).toString('latin1').startsWith('age-encryption.org/v1\n-> scrypt '), 'a passphrase (scrypt) age file');

  // `age -d` reads a passphrase only from a terminal: `script` gives it one fed from our stdin
  // (-e: script exits with age's status).
  const out = join(root, 'copy.tar.gz');
  const age = spawnSync('script', ['-q', '-e', '-c', `/usr/bin/age -d -o '${out}' '${uploaded}'`, '/dev/null'], {
    input: `${PASSPHRASE}\n`,
    encoding: 'utf8',
    timeout: 60_000,
  });
  assert.equal(age.status, 0, `age -d failed: ${age.stdout} ${age.stderr}`);

  const list = spawnSync('tar', ['-tzf', out], { encoding: 'utf8' });
  assert.equal(list.status, 0, list.stderr);
  const names = list.stdout.split('\n').filter(Boolean).sort();
  assert.deepEqual(names, ['sanad-1234/manifest.json', 'sanad-1234/sanad.db']);
  assert.ok(!list.stdout.includes('vault.key'));

  const extracted = join(root, 'extracted');
  mkdirSync(extracted);
  assert.equal(spawnSync('tar', ['-xzf', out, '-C', extracted]).status, 0);
  assert.deepEqual(
    readFileSync(join(extracted, 'sanad-1234', 'sanad.db')),
    readFileSync(join(generationDir, 'sanad.db')),
    'the store copy is byte for byte the same',
  );

  const wrong = spawnSync('script', ['-q', '-e', '-c', `/usr/bin/age -d -o '${out}.2' '${uploaded}'`, '/dev/null'], {
    input: 'not the passphrase\n',
    encoding: 'utf8',
    timeout: 60_000,
  });
  assert.notEqual(wrong.status, 0, 'a wrong passphrase does not open it');
  assert.ok(!existsSync(`${out}.2`) || statSync(`${out}.2`).size === 0, 'and writes nothing');
});
