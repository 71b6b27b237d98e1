// Offsite, with real servers on loopback. A REST offsite (rclone serve restic) that is down makes the
// drill UNVERIFIED (exit 2) while the local repository still passes; up again, PASS; `--repo local`
// drills only the local one. The deep drill reads back each encrypted offsite copy's size from the
// rclone folder: a copy of another size or a missing one is FAIL, a folder that cannot be listed is
// UNVERIFIED.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { addRepository } from '../../src/repository/repositories.js';
import { systemClock } from '../../src/clock.js';
import { startTestAppliance, type TestAppliance } from '../harness/appliance.js';
import { tempDir } from '../harness/data-dir.js';
import { freePort, RestServer } from '../backup/run/rest-server.js';
import { backupNow, drillCli } from './kit.js';

const open: TestAppliance[] = [];
let rest: RestServer | null = null;
after(async () => {
  await rest?.stop();
  for (const a of open) await a.close();
});

test('UNVERIFIED when the REST offsite is down, PASS when it is back; --repo narrows the drill', async () => {
  const t = await startTestAppliance();
  open.push(t);
  const { ctx } = t.appliance;
  rest = new RestServer(tempDir(), await freePort());
  await rest.start();
  addRepository(ctx.writer, ctx.secrets.vault, { name: 'offsite', type: 'rest', location: rest.url }, systemClock);
  const outcome = await backupNow(ctx);
  assert.equal(outcome.status, 'ok');

  const both = await drillCli(t.dataDir);
  assert.equal(both.ran.code, 0, both.ran.stdout);
  assert.ok(
    both.checks.some((c) => c.name === 'offsite:vault:decrypt' && c.status === 'pass'),
    'the offsite generation is drilled too',
  );

  await rest.stop();
  const down = await drillCli(t.dataDir);
  assert.equal(down.ran.code, 2, down.ran.stdout);
  assert.equal(down.verdict, 'UNVERIFIED');
  assert.equal(down.status('offsite:repo:open'), 'unverified');
  assert.match(down.detail('offsite:repo:open'), /could not be reached/);
  assert.ok(
    down.checks.filter((c) => c.name.startsWith('local:')).every((c) => c.status === 'pass'),
    'the local repository still passes',
  );

  const localOnly = await drillCli(t.dataDir, ['--repo', 'local']);
  assert.equal(localOnly.ran.code, 0, localOnly.ran.stdout);
  assert.ok(localOnly.checks.every((c) => c.name.startsWith('local:')));

  await rest.start();
  const back = await drillCli(t.dataDir);
  assert.equal(back.ran.code, 0, back.ran.stdout);
});

test('deep: the offsite copies read back with their uploaded sizes; changed or gone is FAIL, unlistable UNVERIFIED', async () => {
  const t = await startTestAppliance();
  open.push(t);
  const { ctx } = t.appliance;
  const folder = tempDir();
  const conf = join(tempDir(), 'rclone.conf');
  writeFileSync(conf, '[copies]\ntype = local\n');
  ctx.updateSettings({ offsite_copy_destination: `copies:${folder}/سند copies`, offsite_copy_rclone_config: conf, drill_read_subset_total: 1 });
  for (let i = 0; i < 2; i++) assert.equal((await backupNow(ctx)).offsite_copy?.ok, true);

  const good = await drillCli(t.dataDir, ['--deep']);
  assert.equal(good.ran.code, 0, good.ran.stdout);
  assert.match(good.detail('offsite-copy:read-back'), /^2 copies in copies:.* listed with the sizes uploaded/);
  const daily = await drillCli(t.dataDir);
  assert.equal(daily.status('offsite-copy:read-back'), undefined, 'the daily drill does not list the remote');

  const copies = readdirSync(join(folder, 'سند copies')).sort();
  const [older, newer] = copies;
  assert.ok(older && newer);
  appendFileSync(join(folder, 'سند copies', newer), 'x');
  const grown = await drillCli(t.dataDir, ['--deep']);
  assert.equal(grown.ran.code, 1, grown.ran.stdout);
  assert.match(grown.detail('offsite-copy:read-back'), new RegExp(`${newer.replace(/\./g, '\\.')} is \\d+ bytes, \\d+ were uploaded`));

  rmSync(join(folder, 'سند copies', older));
  const gone = await drillCli(t.dataDir, ['--deep']);
  assert.match(gone.detail('offsite-copy:read-back'), new RegExp(`${older.replace(/\./g, '\\.')} is missing`));

  // The same remote name now pointing at a WebDAV server that is not there.
  writeFileSync(conf, `[copies]\ntype = webdav\nurl = http://127.0.0.1:${await freePort()}/\n`);
  const unlistable = await drillCli(t.dataDir, ['--deep']);
  assert.equal(unlistable.status('offsite-copy:read-back'), 'unverified');
  assert.equal(unlistable.ran.code, 2, unlistable.ran.stdout);
  assert.match(unlistable.detail('offsite-copy:read-back'), /could not be listed/);
});
