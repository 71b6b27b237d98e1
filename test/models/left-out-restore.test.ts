// A pulled model left out of backups (its source kept instead): the backup carries no bytes of it,
// the drill says where it comes from, and a restore on a new machine (its own keychain, the kit's
// passphrase) pulls it again from the hub and verifies it; the checklist says so.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { addRepository } from '../../src/repository/repositories.js';
import { systemClock } from '../../src/clock.js';
import { Pull } from '../../src/contract/pulls.js';
import { ModelList } from '../../src/contract/tasks.js';
import { openStore } from '../../src/store/open.js';
import { listModels } from '../../src/store/models.js';
import { startTestAppliance, type TestAppliance } from '../harness/appliance.js';
import { tempDir } from '../harness/data-dir.js';
import { runSanad } from '../harness/run-sanad.js';
import { freePort, RestServer } from '../backup/run/rest-server.js';
import { backupNow, check, newMachineWithOffsite, restoreCli } from '../restore/kit.js';
import { startTestHub, type TestHub } from '../fixtures/hub-server.js';
import { tinyRepo } from '../fixtures/hub-models.js';
import { storePath } from '../../src/files/data-dir-layout.js';

let t: TestAppliance | null = null;
let rest: RestServer | null = null;
let hub: TestHub | null = null;
after(async () => {
  await t?.close();
  await rest?.stop();
  await hub?.close();
});

const repo = tinyRepo();
const q2 = repo.files.find((f) => f.path === 'tiny.Q2_K.gguf')?.bytes ?? Buffer.alloc(0);
const sha = (b: Buffer): string => createHash('sha256').update(b).digest('hex');

test('a model kept only by its source is not in the backup and is pulled again, verified, by a restore on a new machine', async () => {
  hub = await startTestHub([repo]);
  // The appliance here and every sanad the test runs (restoreCli, drill) read the hub from here.
  process.env.HF_ENDPOINT = hub.endpoint;
  t = await startTestAppliance();
  rest = new RestServer(tempDir(), await freePort());
  await rest.start();
  addRepository(t.appliance.ctx.writer, t.appliance.ctx.secrets.vault, { name: 'offsite', type: 'rest', location: rest.url }, systemClock);

  const started = await t.api.post('/admin/models/pulls', { uri: 'hf:sanad-test/tiny-GGUF:Q2_K', id: 'small' });
  assert.equal(started.status, 202, started.text);
  const id = Pull.parse(started.body).id;
  for (let i = 0; i < 300 && Pull.parse((await t.api.get(`/admin/models/pulls/${id}`)).body).status !== 'done'; i++)
    await new Promise((r) => setTimeout(r, 100));
  const set = await t.api.post('/admin/models/small/settings', { backup: 'source' });
  assert.equal(set.status, 200, set.text);
  assert.equal(ModelList.parse((await t.api.get('/v1/models')).body).data.find((m) => m.id === 'small')?.backup, 'source');

  const downloadsBefore = hub.requests.filter((q) => q.path.startsWith('/cdn/') && q.sent > 0).length;
  const generation = await backupNow(t.dataDir);
  const drill = await runSanad(['drill', '--data-dir', t.dataDir, '--json']);
  assert.match(
    drill.stdout,
    /model \\"small\\" is kept only by its source \(hf:sanad-test\/tiny-GGUF\/tiny\.Q2_K\.gguf\), pulled again and verified on restore/,
  );
  const kitPassphrase = t.appliance.ctx.secrets.master.resticPassphrase;

  const { dataDir: machine } = await newMachineWithOffsite(rest.url);
  const target = join(tempDir('sanad-restore-'), 'restored');
  const out = await restoreCli(machine, ['--target', target, '--repo', 'offsite', '--passphrase-stdin'], `${kitPassphrase}\n`);
  assert.equal(out.ran.code, 0, JSON.stringify(out.checks, null, 1));
  assert.equal(out.generation, generation);
  assert.match(check(out, 'manifest:valid').detail, /; 1 model; /, 'the backup carried the one model kept by its bytes (tiny), not the left-out one');
  assert.match(
    check(out, 'models:pulled:small').detail,
    /the backup kept only its source: pulled again from hf:sanad-test\/tiny-GGUF\/tiny\.Q2_K\.gguf into .*models\/tiny\.Q2_K\.gguf, sha256 [0-9a-f]{12}… verified\./,
  );
  assert.match(check(out, 'models:small').detail, /registered at .*; its size and sha256 were verified\./);
  assert.ok(hub.requests.filter((q) => q.path.startsWith('/cdn/') && q.sent > 0).length > downloadsBefore, 'the restore downloaded it from the hub');

  const db = openStore(storePath(target), { readonly: true });
  const row = listModels(db).find((m) => m.id === 'small');
  db.close();
  assert.equal(row?.path, join(target, 'models', 'tiny.Q2_K.gguf'));
  assert.equal(row?.backup, 'source', 'the choice is kept');
  assert.equal(sha(readFileSync(row?.path ?? '')), sha(q2));
});
