// `sanad repo add|list|remove` beside a running service, which does the work (it holds the vault):
// the secret comes from stdin and lands in the vault (never argv, never the table); bad destinations
// are refused with one line.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { field } from '../harness/api.js';
import { runSanad } from '../harness/run-sanad.js';
import { tempDir } from '../harness/data-dir.js';
import { getRepository, secretName } from '../../src/repository/repositories.js';
import { startTestAppliance, type TestAppliance } from '../harness/appliance.js';

let t: TestAppliance | null = null;
after(async () => t?.close());

const sanad = (args: string[], stdin = ''): ReturnType<typeof runSanad> => runSanad(args, { stdin });

test('repo add/list/remove with the secret from stdin', async () => {
  t = await startTestAppliance();
  const d = ['--data-dir', t.dataDir];
  const secret = 'S3-SECRET-FROM-STDIN-abcdef0123';
  const added = await sanad(
    [
      'repo',
      'add',
      'r2',
      '--type',
      's3',
      '--url',
      'https://127.0.0.1:9000/bucket/sanad',
      '--access-key-id',
      'AKID',
      '--region',
      'auto',
      '--secret-stdin',
      '--json',
      ...d,
    ],
    secret + '\n',
  );
  assert.equal(added.code, 0, added.stderr);
  assert.ok(!added.stdout.includes(secret) && !added.stderr.includes(secret));
  assert.equal(t.appliance.ctx.secrets.vault.get(secretName('r2')), secret, 'the running service reads it from the vault');
  // The service made it (the one process holding the vault): its answer says a secret is kept.
  const answered: unknown = JSON.parse(added.stdout);
  assert.equal(field(answered, 'has_secret'), true, added.stdout);
  assert.equal(getRepository(t.appliance.ctx.writer, 'r2')?.options.access_key_id, 'AKID');

  // An rclone repository names a remote rclone has configured (here in its own rclone.conf).
  const conf = join(tempDir('sanad-rclone-conf-'), 'rclone.conf');
  writeFileSync(conf, '[backup]\ntype = local\n');
  const none = join(tempDir('sanad-rclone-conf-'), 'rclone.conf');
  writeFileSync(none, '');
  const unknown = await sanad(['repo', 'add', 'nas', '--type', 'rclone', '--remote', 'backup:نسخ/sanad', '--rclone-config', none, ...d]);
  assert.equal(unknown.code, 1, 'no such remote in that rclone config');
  assert.match(unknown.stderr, /no rclone remote named "backup" is configured/);
  const rclone = await sanad(['repo', 'add', 'nas', '--type', 'rclone', '--remote', 'backup:نسخ/sanad', '--rclone-config', conf, ...d]);
  assert.equal(rclone.code, 0, rclone.stderr);
  const inline = await sanad(['repo', 'add', 'bad', '--type', 'rclone', '--remote', ':s3:bucket', ...d]);
  assert.equal(inline.code, 1);
  assert.match(inline.stderr, /inline backends/);
  assert.equal(inline.stderr.trim().split('\n').length, 1);

  const list = await sanad(['repo', 'list', '--json', ...d]);
  const names: unknown = JSON.parse(list.stdout);
  assert.ok(Array.isArray(names));
  assert.deepEqual(
    names.map((r: unknown) => (typeof r === 'object' && r !== null && 'name' in r ? r.name : null)),
    ['local', 'nas', 'r2'],
  );

  const removed = await sanad(['repo', 'remove', 'r2', ...d]);
  assert.equal(removed.code, 0, removed.stderr);
  assert.equal(t.appliance.ctx.secrets.vault.get(secretName('r2')), null);
  const again = await sanad(['repo', 'remove', 'r2', ...d]);
  assert.equal(again.code, 1);
  assert.match(again.stderr, /no repository named "r2"/);
});
