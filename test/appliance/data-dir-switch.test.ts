// hostAppliance, the loop `sanad serve` runs and the desktop shell can run in-process: a switch asked
// through the appliance's hook closes it and starts the next data dir on the same port with the
// pre-made login code; a data dir that cannot start sends it back to the previous one with that
// same code and an alert there; `stopped` ends it. Real appliances, real keychain.
import { signInWithLink } from '../harness/gui-session.js';
import { freePort } from '../harness/ports.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { openAlerts } from '../../src/store/alerts.js';
import type { Appliance } from '../../src/appliance/appliance.js';
import { hostAppliance, SWITCH_FAILED_ALERT, type StartReason } from '../../src/appliance/data-dir-switch.js';
import { acquireInstanceLock } from '../../src/appliance/instance-lock.js';
import { silentLogger } from '../../src/log/logger.js';
import { newLoginCode } from '../../src/service/login-codes.js';
import { waitFor } from '../harness/api.js';
import { prepareDataDir } from '../harness/data-dir.js';

process.env.SANAD_THREADS ??= '1';
process.env.SANAD_GPU ??= 'off';

async function redeems(loginUrl: string): Promise<boolean> {
  return (await signInWithLink(loginUrl)).status === 200;
}

test('switch to another data dir on the same port; a dir that cannot start falls back with an alert; stop ends the loop', async () => {
  const a = await prepareDataDir();
  const b = await prepareDataDir();
  const c = await prepareDataDir();
  const started: Array<{ appliance: Appliance; reason: StartReason; loginUrl: string }> = [];
  const failures: string[] = [];
  let stop: () => void = () => undefined;
  const stopped = new Promise<void>((resolve) => (stop = resolve));
  const hosting = hostAppliance(
    { dataDir: a.dataDir, port: await freePort(), logger: silentLogger },
    {
      stopped,
      started: (appliance, info) => started.push({ appliance, ...info }),
      switchFailed: (from, to) => failures.push(`${from} -> ${to}`),
    },
  );

  const first = await waitFor(() => started[0], 30_000, 'the first start');
  assert.equal(first.reason, 'start');
  const port = first.appliance.port;
  assert.ok(port > 0);
  assert.ok(await redeems(first.loginUrl));
  const hook = first.appliance.ctx.switchDataDir;
  assert.ok(hook, 'the host gave the appliance its switch hook');

  const code = newLoginCode();
  hook({ dataDir: b.dataDir, loginCode: code });
  const second = await waitFor(() => started[1], 30_000, 'the switch');
  assert.equal(second.reason, 'switch');
  assert.equal(second.appliance.ctx.dataDir, b.dataDir);
  assert.equal(second.appliance.port, port, 'the same port');
  assert.equal(second.loginUrl, `${second.appliance.url}/login?code=${code}`);
  assert.ok(!existsSync(join(a.dataDir, 'service.json')));
  acquireInstanceLock(a.dataDir).release();
  assert.ok(existsSync(join(b.dataDir, 'service.json')));
  assert.ok(await redeems(second.loginUrl), 'the pre-made code signs in to the new instance');
  assert.ok(!(await redeems(second.loginUrl)), 'once');

  // c is held by "another Sanad": it cannot start, so the host goes back to b with the same code.
  const held = acquireInstanceLock(c.dataDir);
  const code2 = newLoginCode();
  const hook2 = second.appliance.ctx.switchDataDir;
  assert.ok(hook2);
  hook2({ dataDir: c.dataDir, loginCode: code2 });
  const third = await waitFor(() => started[2], 30_000, 'the fallback');
  held.release();
  assert.equal(third.reason, 'fallback');
  assert.equal(third.appliance.ctx.dataDir, b.dataDir);
  assert.equal(third.appliance.port, port);
  assert.deepEqual(failures, [`${b.dataDir} -> ${c.dataDir}`]);
  const alert = openAlerts(third.appliance.ctx.writer).find((x) => x.key === SWITCH_FAILED_ALERT);
  assert.ok(alert, 'the fallback raised an alert');
  assert.match(alert.message, /could not open the restored data in .*\(Another Sanad is already running/);
  assert.ok(await redeems(`${third.appliance.url}/login?code=${code2}`), 'the link the GUI got still signs in');

  stop();
  await hosting;
  assert.ok(!existsSync(join(b.dataDir, 'service.json')), 'stopped cleanly');
  acquireInstanceLock(b.dataDir).release();
});
