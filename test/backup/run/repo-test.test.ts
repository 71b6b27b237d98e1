// `sanad repo test NAME` proves a real write AND delete: a REST server that is up passes; one that
// accepts writes but refuses deletes (append-only) fails; one that is down fails with its reason.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { runSanad } from '../../harness/run-sanad.js';
import { addRepository } from '../../../src/repository/repositories.js';
import { systemClock } from '../../../src/clock.js';
import { startTestAppliance, type TestAppliance } from '../../harness/appliance.js';
import { tempDir } from '../../harness/data-dir.js';
import { freePort, RestServer } from './rest-server.js';

const servers: RestServer[] = [];
let t: TestAppliance | null = null;
after(async () => {
  for (const s of servers) await s.stop();
  await t?.close();
});

const sanad = (args: string[]): ReturnType<typeof runSanad> => runSanad(args);

test('repo test: writable passes, append-only and down fail', async () => {
  t = await startTestAppliance();
  const { writer: db, secrets } = t.appliance.ctx;
  const good = new RestServer(tempDir(), await freePort());
  const appendOnly = new RestServer(tempDir(), await freePort(), ['--append-only']);
  servers.push(good, appendOnly);
  await good.start();
  await appendOnly.start();
  addRepository(db, secrets.vault, { name: 'good', type: 'rest', location: good.url }, systemClock);
  addRepository(db, secrets.vault, { name: 'appendonly', type: 'rest', location: appendOnly.url }, systemClock);
  const d = ['--data-dir', t.dataDir];

  const ok = await sanad(['repo', 'test', 'good', ...d]);
  assert.equal(ok.code, 0, ok.stdout + ok.stderr);
  assert.match(ok.stdout, /accepted a write and a delete/);
  const again = await sanad(['repo', 'test', 'good', '--json', ...d]);
  assert.equal(again.code, 0);
  assert.match(again.stdout, /"initialized":false/, 'the second test reuses the repository it created');

  const ao = await sanad(['repo', 'test', 'appendonly', ...d]);
  assert.equal(ao.code, 1, 'a remote that cannot delete is not healthy');
  assert.match(ao.stdout, /FAILED/);

  await good.stop();
  const down = await sanad(['repo', 'test', 'good', ...d]);
  assert.equal(down.code, 1);
  assert.match(down.stdout, /FAILED/);
});
