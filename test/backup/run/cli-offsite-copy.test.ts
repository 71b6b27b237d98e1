// `sanad backup now --json` beside a running service, with the compressed offsite copy set up: the
// backup is the service's, and the CLI still reports the copy's outcome (kept on the run's record),
// exactly as when it runs the backup itself.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { field } from '../../harness/api.js';
import { startTestAppliance, type TestAppliance } from '../../harness/appliance.js';
import { tempDir } from '../../harness/data-dir.js';
import { jsonOut, runCli } from '../../cli/run-cli.js';

let t: TestAppliance | null = null;
after(async () => t?.close());

test('the CLI beside a service reports the offsite copy of the backup it asked for', async () => {
  t = await startTestAppliance();
  const folder = tempDir();
  const conf = join(tempDir(), 'rclone.conf');
  writeFileSync(conf, '[copies]\ntype = local\n');
  t.appliance.ctx.updateSettings({ offsite_copy_destination: `copies:${folder}/copies`, offsite_copy_keep: 2, offsite_copy_rclone_config: conf });
  const r = await runCli(['backup', 'now', '--json', '--data-dir', t.dataDir], 120_000);
  assert.equal(r.code, 0, r.stderr);
  const out = jsonOut(r);
  assert.equal(field(out, 'offsite_copy', 'ok'), true, r.stdout);
  const name = field(out, 'offsite_copy', 'name');
  assert.equal(typeof name, 'string');
  assert.deepEqual(
    readdirSync(join(folder, 'copies')).filter((n) => n.endsWith('.tar.gz.age')),
    [name],
    'the copy named is the one uploaded',
  );
  const runs = (await t.api.get('/admin/backups')).body;
  assert.equal(field(runs, 'data', 0, 'offsite_copy', 'name'), name, 'GET /admin/backups shows it too');
});
