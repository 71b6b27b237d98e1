// A damaged store at start (page headers overwritten, as a failing disk does): `sanad serve` says
// in one sentence that the store at PATH is damaged, when the last good backup was made and the
// command that restores it; the file is left byte for byte as it was; `sanad doctor` reports it;
// and that very command restores the data into a new folder that serves again.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { field, str } from '../harness/api.js';
import { newAdminToken, tempDir } from '../harness/data-dir.js';
import { damagedDataDirWithBackup, sha } from './damaged-kit.js';
import { startServiceProcess, type ServiceProcess } from '../harness/service-process.js';
import { runCli } from '../cli/run-cli.js';

const services: ServiceProcess[] = [];
after(async () => {
  for (const s of services) await s.kill();
});

test('a damaged store: serve refuses in one sentence with the last good backup and the restore command, which works', async () => {
  const { dataDir, responseId, text, generation, store, damagedSha: before } = await damagedDataDirWithBackup();

  const serve = await runCli(['serve', '--port', '0', '--data-dir', dataDir]);
  assert.equal(serve.code, 1, serve.stdout + serve.stderr);
  const said = serve.stderr.trim();
  assert.equal(said.split('\n').length, 1, `one line: ${said}`);
  assert.ok(!/\n\s+at /.test(serve.stderr), 'no stack trace');
  assert.ok(said.includes(`The store at ${store} is damaged`), said);
  assert.ok(said.includes(`generation ${generation}`), `it names the last good backup: ${said}`);
  assert.ok(said.includes(`sanad restore --data-dir ${dataDir} --target NEW_FOLDER`), `it gives the restore command: ${said}`);
  assert.equal(sha(store), before, 'the damaged file is left exactly as it was');

  const doctor = await runCli(['doctor', '--data-dir', dataDir, '--json']);
  assert.equal(doctor.code, 1, doctor.stderr);
  const checks: unknown = field(JSON.parse(doctor.stdout), 'checks');
  assert.ok(Array.isArray(checks));
  const storeCheck: unknown = checks.find((c: unknown) => str(c, 'name') === 'store');
  assert.equal(field(storeCheck, 'status'), 'fail');
  assert.match(str(storeCheck, 'fix'), /sanad restore --data-dir/);

  // The command it gave, run as the user would (NEW_FOLDER filled in).
  const target = join(tempDir('sanad-restored-'), 'data');
  const restore = await runCli(['restore', '--data-dir', dataDir, '--target', target, '--json'], 120_000);
  assert.equal(restore.code, 0, restore.stdout + restore.stderr);
  assert.equal(sha(store), before, 'restoring from the damaged data dir only read it');
  // The backup's clients were revoked by the restore (it was not told to keep them): a new token.
  const restored = await startServiceProcess(target, newAdminToken(target));
  services.push(restored);
  const back = await restored.api.get(`/v1/responses/${responseId}`);
  assert.equal(back.status, 200, back.text);
  assert.equal(str(back.body, 'output', 0, 'content', 0, 'text'), text, 'the response is back, word for word');
});
