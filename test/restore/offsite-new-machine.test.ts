// A new machine: a second data dir whose keychain holds a passphrase of its own, the offsite REST
// repository (rclone serve restic on loopback) added to it, and the passphrase of the data dir
// that made the backups given on stdin, as from the recovery kit. The restored dir keeps that
// passphrase (not the new machine's) and can back up to the same offsite at once.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { addRepository } from '../../src/repository/repositories.js';
import { systemClock } from '../../src/clock.js';
import { KeychainStore } from '../../src/secrets/keychain.js';
import { dataDirScope } from '../../src/secrets/scope.js';
import { RESTIC_PASSPHRASE } from '../../src/secrets/secret-store.js';
import { field } from '../harness/api.js';
import { startTestAppliance, type TestAppliance } from '../harness/appliance.js';
import { tempDir } from '../harness/data-dir.js';
import { runSanad } from '../harness/run-sanad.js';
import { freePort, RestServer } from '../backup/run/rest-server.js';
import { backupNow, check, keychainEntries, newMachineWithOffsite, restoreCli } from './kit.js';

let t: TestAppliance | null = null;
let rest: RestServer | null = null;
after(async () => {
  await rest?.stop();
  await t?.close();
});

test('restore from an offsite repository on a new machine, with the recovery-kit passphrase on stdin', async () => {
  t = await startTestAppliance();
  rest = new RestServer(tempDir(), await freePort());
  await rest.start();
  addRepository(t.appliance.ctx.writer, t.appliance.ctx.secrets.vault, { name: 'offsite', type: 'rest', location: rest.url }, systemClock);
  const generation = await backupNow(t.dataDir);
  const kitPassphrase = t.appliance.ctx.secrets.master.resticPassphrase;

  // The new machine: its own data dir and secrets, and the offsite repository added by name.
  const { dataDir: machine, ownPassphrase } = await newMachineWithOffsite(rest.url);
  assert.notEqual(ownPassphrase, kitPassphrase);

  const noStdin = await runSanad(['restore', '--list', '--repo', 'offsite', '--data-dir', machine]);
  assert.equal(noStdin.code, 1);
  assert.match(noStdin.stderr, /does not open the repository "offsite"; give the passphrase from its recovery kit \(pipe it in with --passphrase-stdin/);

  const wrong = await runSanad(['restore', '--list', '--repo', 'offsite', '--passphrase-stdin', '--data-dir', machine], { stdin: 'not-the-passphrase\n' });
  assert.equal(wrong.code, 1);
  assert.match(wrong.stderr, /does not open the repository "offsite" either/);

  const listed = await runSanad(['restore', '--list', '--repo', 'offsite', '--passphrase-stdin', '--data-dir', machine, '--json'], {
    stdin: `${kitPassphrase}\n`,
  });
  assert.equal(listed.code, 0, listed.stderr);
  assert.equal(field(JSON.parse(listed.stdout), 0, 'generation'), generation);
  assert.equal(field(JSON.parse(listed.stdout), 0, 'repo'), 'offsite');

  const target = join(tempDir('sanad-restore-'), 'from-offsite');
  const out = await restoreCli(machine, ['--target', target, '--repo', 'offsite', '--passphrase-stdin'], `${kitPassphrase}\n`);
  assert.equal(out.ran.code, 0, JSON.stringify(out.checks, null, 1));
  assert.equal(out.generation, generation);
  assert.match(check(out, 'snapshot:found').detail, /repository "offsite"/);
  const secrets = await keychainEntries(target);
  assert.equal(secrets.passphrase, kitPassphrase, 'the restored dir keeps the passphrase that opened the backups');
  assert.equal(secrets.vaultKey, t.appliance.ctx.secrets.master.vaultKey.toString('base64'));
  assert.equal(await new KeychainStore(dataDirScope(machine)).get(RESTIC_PASSPHRASE), ownPassphrase, "the new machine's own data dir is untouched");

  // The restored dir carries on: its vault opens the offsite credentials, its passphrase the repository.
  const again = await runSanad(['backup', 'now', '--data-dir', target, '--json']);
  assert.equal(again.code, 0, again.stderr);
  const repos = field(JSON.parse(again.stdout), 'repositories');
  assert.ok(Array.isArray(repos));
  assert.deepEqual(
    repos.map((r: unknown) => [field(r, 'name'), field(r, 'ok')]),
    [
      ['local', true],
      ['offsite', true],
    ],
  );
});
