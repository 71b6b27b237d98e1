// PATCH /admin/repositories/{name}, what the GUI's Offsite screen edits with: only what is sent
// changes, a new secret really replaces the old one (proved by a real write-and-delete probe against
// a password-protected `rclone serve restic`), a blank secret keeps it, a new location forgets the
// old place's last good copy, bad values are refused naming the field, and no answer ever holds a
// secret. Also: the settings route refuses a bad offsite-copy destination where it is typed, and
// pairing, creating and revoking clients are announced on the admin event stream.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { recordRepositoryResult, secretName } from '../../src/repository/repositories.js';
import type { AdminEvent } from '../../src/jobs/admin-events.js';
import { field, str } from '../harness/api.js';
import { startTestAppliance, type TestAppliance } from '../harness/appliance.js';
import { tempDir } from '../harness/data-dir.js';
import { freePort, RestServer } from '../backup/run/rest-server.js';

let t: TestAppliance | null = null;
let rest: RestServer | null = null;
after(async () => {
  await rest?.stop();
  await t?.close();
});

const PASSWORD = 'REST-PASSWORD-edit-0123456789';
const WRONG = 'WRONG-PASSWORD-edit-9876543210';

test('PATCH edits an offsite target: secret replaced only when given, location resets its history', async () => {
  rest = new RestServer(tempDir('sanad-edit-rest-'), await freePort(), ['--user', 'sanad', '--pass', PASSWORD]);
  await rest.start();
  t = await startTestAppliance();
  const { api } = t;
  const {
    writer: db,
    secrets: { vault },
  } = t.appliance.ctx;

  const added = await api.post('/admin/repositories', { name: 'nas', type: 'rest', location: rest.url, options: { user: 'sanad' }, secret: WRONG });
  assert.equal(added.status, 201, added.text);
  assert.equal(field(added.body, 'has_secret'), true);
  const refused = await api.post('/admin/repositories/nas/test');
  assert.equal(field(refused.body, 'ok'), false, 'the wrong password is refused by the real server');
  assert.match(String(field(refused.body, 'said', 'code')), /^restic\./, "the refusal is restic's saying, for the GUI to word");

  const patch = (body: unknown) => api.request('PATCH', '/admin/repositories/nas', body);
  const fixed = await patch({ secret: PASSWORD });
  assert.equal(fixed.status, 200, fixed.text);
  assert.equal(vault.get(secretName('nas')), PASSWORD);
  const probe = await api.post('/admin/repositories/nas/test');
  assert.equal(field(probe.body, 'ok'), true, `the new password works: ${probe.text}`);

  // No secret in the body keeps the stored one; options are replaced as a whole.
  const disabled = await patch({ enabled: false, options: { user: 'sanad' } });
  assert.equal(disabled.status, 200, disabled.text);
  assert.equal(field(disabled.body, 'enabled'), false);
  assert.equal(vault.get(secretName('nas')), PASSWORD, 'an edit without a secret keeps it');
  assert.equal((await api.post('/admin/repositories/nas/test')).status, 200);

  recordRepositoryResult(db, 'nas', 1_800_000_000, null);
  recordRepositoryResult(db, 'nas', 1_800_000_100, 'timeout');
  const sameLocation = await patch({ location: rest.url });
  assert.equal(field(sameLocation.body, 'last_ok_at'), 1_800_000_000, 'the same place keeps its history');
  const moved = await patch({ location: `${rest.url}elsewhere` });
  assert.equal(moved.status, 200, moved.text);
  assert.equal(field(moved.body, 'location'), `${rest.url}elsewhere`);
  assert.equal(field(moved.body, 'last_ok_at'), null, 'a new place has no good copy yet');
  assert.equal(field(moved.body, 'last_error'), null);

  const cleared = await patch({ secret: null, options: {} });
  assert.equal(cleared.status, 200, cleared.text);
  assert.equal(field(cleared.body, 'has_secret'), false);
  assert.equal(vault.get(secretName('nas')), null, 'null removes the secret');

  for (const res of [added, fixed, disabled, moved, await api.get('/admin/repositories')]) {
    assert.ok(!res.text.includes(PASSWORD) && !res.text.includes(WRONG), 'no answer holds a secret');
  }
});

/** An rclone.conf with one remote (a local folder), as a person's configured remote. */
function rcloneConfig(remote = 'backup'): string {
  const path = join(tempDir('sanad-rclone-conf-'), 'rclone.conf');
  writeFileSync(path, `[${remote}]\ntype = local\n`);
  return path;
}

test('PATCH refuses bad edits naming the field, and changes nothing', async () => {
  t ??= await startTestAppliance();
  const { api } = t;
  assert.equal(
    (
      await api.post('/admin/repositories', {
        name: 'r2',
        type: 's3',
        location: 'https://acct.r2.example/bucket/sanad',
        options: { access_key_id: 'AKID', region: 'auto' },
        secret: 'S3-SECRET-edit-abc',
      })
    ).status,
    201,
  );
  assert.equal(
    (await api.post('/admin/repositories', { name: 'drive', type: 'rclone', location: 'backup:sanad', options: { rclone_config: rcloneConfig() } })).status,
    201,
  );
  const before = (await api.get('/admin/repositories')).text;
  const cases: Array<[string, unknown, string]> = [
    ['r2', { location: 'https://acct.r2.example/' }, 'url'],
    ['r2', { location: 'https://key:secret@acct.r2.example/bucket' }, 'url'],
    ['r2', { secret: null }, 'secret'],
    ['r2', { options: { region: 'auto' } }, 'access_key_id'],
    ['r2', { options: { region: '' } }, 'options.region'],
    ['r2', { options: { endpoint: 'x' } }, 'options.endpoint'],
    ['r2', { type: 'rest' }, 'type'],
    ['r2', { enabled: 'no' }, 'enabled'],
    ['drive', { location: ':s3:bucket' }, 'remote'],
    ['drive', { location: '--config=/etc/passwd:x' }, 'remote'],
  ];
  for (const [name, body, param] of cases) {
    const res = await api.request('PATCH', `/admin/repositories/${name}`, body);
    assert.equal(res.status, 400, `${JSON.stringify(body)}: ${res.text}`);
    assert.equal(field(res.body, 'error', 'param'), param, JSON.stringify(body));
  }
  assert.equal((await api.get('/admin/repositories')).text, before, 'nothing changed');
  assert.equal((await api.request('PATCH', '/admin/repositories/nowhere', { enabled: false })).status, 404);
  const local = await api.request('PATCH', '/admin/repositories/local', { enabled: false });
  assert.equal(local.status, 400, 'the local repository only moves');
  // The add route names an empty option too (it used to fail with a 500).
  const emptyOption = await api.post('/admin/repositories', { name: 'x', type: 'rest', location: 'http://127.0.0.1:1/', options: { user: '' } });
  assert.equal(emptyOption.status, 400);
  assert.equal(field(emptyOption.body, 'error', 'param'), 'options.user');
});

test('the offsite-copy destination is checked when it is set', async () => {
  t ??= await startTestAppliance();
  const { api } = t;
  for (const bad of [':s3:bucket', 'no-colon', '-x:y', 'remote,opt=1:path']) {
    const res = await api.request('PATCH', '/admin/settings', { offsite_copy_destination: bad });
    assert.equal(res.status, 400, bad);
    assert.equal(field(res.body, 'error', 'param'), 'offsite_copy_destination');
  }
  const unknownRemote = await api.request('PATCH', '/admin/settings', {
    offsite_copy_destination: 'backup:sanad copies',
    offsite_copy_rclone_config: rcloneConfig('other'),
  });
  assert.equal(unknownRemote.status, 400, 'a remote rclone does not have configured');
  const ok = await api.request('PATCH', '/admin/settings', {
    offsite_copy_destination: 'backup:sanad copies',
    offsite_copy_rclone_config: rcloneConfig(),
    offsite_copy_keep: 0,
  });
  assert.equal(ok.status, 200, ok.text);
  assert.equal(field(ok.body, 'offsite_copy_destination'), 'backup:sanad copies');
  assert.equal(field((await api.request('PATCH', '/admin/settings', { offsite_copy_destination: null })).body, 'offsite_copy_destination'), null);
});

test('pairing, making and revoking a client are announced to the GUI', async () => {
  t ??= await startTestAppliance();
  const { api } = t;
  const events: AdminEvent[] = [];
  const stop = t.appliance.ctx.adminEvents.subscribe((e) => events.push(e));
  try {
    const code = str((await api.post('/admin/pairing-codes', { scopes: ['models:read'] })).body, 'code');
    const paired = await api.withToken(null).post('/v1/pair', { code, client_name: 'phone' });
    assert.equal(paired.status, 201);
    const id = str(paired.body, 'client_id');
    const made = str((await api.post('/admin/clients', { name: 'script', scopes: ['tasks:read'] })).body, 'client_id');
    assert.equal((await api.post(`/admin/clients/${id}/revoke`)).status, 200);
    const seen = events.filter((e) => e.type === 'clients.changed').map((e) => [e.data.client_id, e.data.change]);
    assert.deepEqual(seen, [
      [id, 'paired'],
      [made, 'created'],
      [id, 'revoked'],
    ]);
    assert.ok(!JSON.stringify(events).includes(str(paired.body, 'token')), 'no token in an event');
  } finally {
    stop();
  }
});
