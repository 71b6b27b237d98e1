// "Open the restored data" against a real `sanad serve` child: a backup and a restore through the
// admin API, the target check the GUI asks before the click (same answers as the restore itself,
// nothing touched), then POST /admin/restore/{id}/open: 202 with a login URL, the same process
// stops its appliance and serves the restored dir on the same port, the old dir's lock and
// service.json are released, the login URL signs a browser in to the new instance (the old
// session no longer works), the model generates on the new instance, a thinking model's stored
// answer comes back with its thought, and a SIGTERM still stops it cleanly.
import { sessionHeader, signInWithLink } from '../harness/gui-session.js';
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { acquireInstanceLock } from '../../src/appliance/instance-lock.js';
import { field, num, str, waitFor, type Api, noOpenRun } from '../harness/api.js';
import { addModelFile, prepareDataDir, tempDir } from '../harness/data-dir.js';
import { thinkingModelPath } from '../fixtures/tiny-model.js';
import { THINKING_MODEL_THOUGHT } from '../../src/demo/thinking-model.js';
import { startServiceProcess, type ServiceProcess } from '../harness/service-process.js';
import { treePicture } from './kit.js';

let service: ServiceProcess | null = null;
after(async () => service?.kill());

async function restoreFinished(api: Api, id: string): Promise<unknown> {
  return waitFor(
    async () => {
      const res = await api.get(`/admin/restore/${id}`);
      const status = field(res.body, 'status');
      return status === 'running' || status === 'queued' ? undefined : res.body;
    },
    120_000,
    'the restore to finish',
  );
}

const signIn = signInWithLink;

async function statusWithSession(url: string, token: string): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${url}/admin/status`, { headers: sessionHeader(token) });
  return { status: res.status, body: await res.json() };
}

test('check the target before the click; open the restored data: same process and port, new data dir, signed in by the new link', async () => {
  const prepared = await prepareDataDir();
  await addModelFile(prepared.dataDir, 'thinker', await thinkingModelPath());
  service = await startServiceProcess(prepared.dataDir, prepared.adminToken);
  const { api } = service;
  // A thinking model's answer, kept with its thought: the backup must carry both.
  const thought = await api.post('/v1/responses', { model: 'thinker', input: 'Think first' });
  assert.equal(str(thought.body, 'output', 0, 'type'), 'reasoning', thought.text);
  const oldSession = await signIn(service.loginUrl);
  assert.equal(oldSession.status, 200);
  assert.ok(oldSession.token);

  assert.equal((await api.post('/admin/backups')).status, 202);
  await waitFor(async () => await noOpenRun(api, 'backup'), 60_000, 'the backup');

  // The target check: the restore's own rules, answered with 200 and a reason, nothing written.
  const full = tempDir('sanad-full-');
  writeFileSync(join(full, 'mine.txt'), 'keep me');
  const picture = treePicture(full);
  const file = join(tempDir('sanad-file-'), 'a-file');
  writeFileSync(file, 'x');
  const empty = tempDir('sanad-empty-');
  const target = join(tempDir('sanad-open-'), 'restored');
  const cases: Array<[string, boolean, string | null]> = [
    ['relative/dir', false, 'not_absolute'],
    [full, false, 'not_empty'],
    [file, false, 'not_a_folder'],
    [join(prepared.dataDir, 'inside'), false, 'inside_live'],
    [prepared.dataDir, false, 'is_live'],
    [empty, true, null],
    [target, true, null],
  ];
  for (const [path, ok, refusal] of cases) {
    const res = await api.post('/admin/restore/check-target', { target: path });
    assert.equal(res.status, 200, res.text);
    assert.equal(field(res.body, 'ok'), ok, `${path}: ${res.text}`);
    assert.equal(field(res.body, 'refusal'), refusal, path);
    if (!ok) assert.equal(typeof field(res.body, 'reason'), 'string');
  }
  assert.equal(field((await api.post('/admin/restore/check-target', { target })).body, 'state'), 'absent');
  assert.match(str((await api.post('/admin/restore/check-target', { target: full })).body, 'reason'), /is not empty/);
  assert.deepEqual(treePicture(full), picture, 'the check touched nothing');
  assert.ok(!existsSync(target) && !existsSync(join(prepared.dataDir, 'inside')));
  assert.equal((await api.post('/admin/restore/check-target', {})).status, 400);

  // Only a restore that succeeded can be opened.
  assert.equal((await api.post('/admin/restore/restore_nope/open')).status, 404);
  const bad = await api.post('/admin/restore', { target: empty, generation: 12345 });
  const failed = await restoreFinished(api, String(num(bad.body, 'id')));
  assert.equal(field(failed, 'status'), 'failed');
  const refused = await api.post(`/admin/restore/${String(num(bad.body, 'id'))}/open`);
  assert.equal(refused.status, 409);
  assert.equal(field(refused.body, 'error', 'code'), 'restore_not_succeeded');

  // keep_clients: this test made the backup, and its admin token shows when the new instance serves.
  const started = await api.post('/admin/restore', { target, keep_clients: true });
  assert.equal(started.status, 202, started.text);
  const id = String(num(started.body, 'id'));
  assert.equal(field(await restoreFinished(api, id), 'status'), 'ok');

  // Another Sanad holding the restored dir: refused before this one stops.
  const held = acquireInstanceLock(target);
  const busy = await api.post(`/admin/restore/${id}/open`);
  held.release();
  assert.equal(busy.status, 409);
  assert.equal(field(busy.body, 'error', 'code'), 'restored_data_in_use');
  assert.equal(field((await api.get('/admin/status')).body, 'service', 'data_dir'), prepared.dataDir, 'still serving the old dir');

  // The old appliance has a model loaded: the switch must close that engine and the next one load again.
  const before = await api.post('/v1/responses', { model: 'tiny', input: 'hello', max_output_tokens: 8 });
  assert.equal(before.status, 200, before.text);

  let out = '';
  service.child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  const opened = await api.post(`/admin/restore/${id}/open`);
  assert.equal(opened.status, 202, opened.text);
  assert.equal(field(opened.body, 'data_dir'), realpathSync(target));
  const loginUrl = str(opened.body, 'login_url');
  assert.ok(loginUrl.startsWith(`${service.url}/login?code=`), loginUrl);

  // The admin token is in the restored store too (kept), so the API shows when the new instance serves.
  const status = await waitFor(
    async () => {
      const res = await api.get('/admin/status').catch(() => null);
      return res?.status === 200 && field(res.body, 'service', 'data_dir') === realpathSync(target) ? res.body : undefined;
    },
    60_000,
    'the restored data to be served',
  );
  assert.equal(field(status, 'service', 'address'), service.url, 'same host and port');
  assert.equal(service.child.exitCode, null, 'the same process');

  const line = await waitFor(() => out.split('\n').find((l) => l.includes('"reason":"switch"')), 10_000, 'the new instance line');
  assert.equal(field(JSON.parse(line), 'login_url'), loginUrl);
  assert.equal(field(JSON.parse(line), 'data_dir'), realpathSync(target));
  assert.equal(field(JSON.parse(line), 'pid'), service.child.pid);

  // The old dir is free and no longer advertises a service; the new one does, on the same port.
  assert.ok(!existsSync(join(prepared.dataDir, 'service.json')), 'the old service.json is gone');
  acquireInstanceLock(prepared.dataDir).release();
  const info: unknown = JSON.parse(readFileSync(join(target, 'service.json'), 'utf8'));
  assert.equal(field(info, 'port'), service.port);
  assert.equal(field(info, 'pid'), service.child.pid);

  // The browser's old session belonged to the old instance; the new link signs in, once.
  assert.equal((await statusWithSession(service.url, oldSession.token)).status, 401);
  const session = await signIn(loginUrl);
  assert.equal(session.status, 200);
  assert.ok(session.token);
  const mine = await statusWithSession(service.url, session.token);
  assert.equal(mine.status, 200);
  assert.equal(field(mine.body, 'service', 'data_dir'), realpathSync(target));
  assert.equal((await signIn(loginUrl)).status, 403, 'the link works once');

  // The restored instance has the backup's data (the model, now under the restored folder) and generates with it.
  const models = await api.get('/v1/models');
  assert.ok(JSON.stringify(models.body).includes('"tiny"'), models.text);
  const after = await api.post('/v1/responses', { model: 'tiny', input: 'hello again', max_output_tokens: 8 });
  assert.equal(after.status, 200, after.text);
  assert.equal(field(after.body, 'usage', 'output_tokens'), 8, after.text);
  const kept = await api.get(`/v1/responses/${str(thought.body, 'id')}`);
  assert.equal(kept.status, 200, kept.text);
  assert.deepEqual(
    [str(kept.body, 'output', 0, 'type'), str(kept.body, 'output', 0, 'content', 0, 'text'), str(kept.body, 'output', 1, 'type')],
    ['reasoning', THINKING_MODEL_THOUGHT, 'message'],
    'the restored answer keeps its thought, before the message',
  );
  assert.ok(num(kept.body, 'usage', 'output_tokens_details', 'reasoning_tokens') > 0);

  const code = await service.stop();
  assert.equal(code, 0, service.stderr());
  assert.ok(!existsSync(join(target, 'service.json')), 'a clean stop removes the new service.json');
  assert.match(service.stderr(), /Stopping Sanad on .* to open .*restored/);
});
