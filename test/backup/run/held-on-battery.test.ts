// "Not on battery" through the real service and real restic, with the power read from a Linux
// power_supply folder (written by the test: this machine has no battery). On battery the due first
// backup waits and the status says why; "Back up now" is never held; on mains the next check runs it.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { systemConditions } from '../../../src/schedule/os-conditions.js';
import { field, waitFor, noOpenRun } from '../../harness/api.js';
import { startTestAppliance, type TestAppliance } from '../../harness/appliance.js';
import { tempDir } from '../../harness/data-dir.js';

let t: TestAppliance | null = null;
after(async () => t?.close());

test('a scheduled backup is held on battery (sysfs written by the test), said in the status, and runs once on mains', async () => {
  const sysfs = tempDir();
  mkdirSync(join(sysfs, 'AC'));
  mkdirSync(join(sysfs, 'BAT0'));
  writeFileSync(join(sysfs, 'AC', 'type'), 'Mains\n');
  writeFileSync(join(sysfs, 'AC', 'online'), '0\n');
  writeFileSync(join(sysfs, 'BAT0', 'type'), 'Battery\n');
  writeFileSync(join(sysfs, 'BAT0', 'status'), 'Discharging\n');
  t = await startTestAppliance({ settings: { backup_skip_on_battery: true }, conditions: systemConditions({ platform: 'linux', sysfsRoot: sysfs }) });
  const { api } = t;
  // The schedule was paused while the data dir was prepared: turned on as a person would.
  assert.equal((await api.request('PATCH', '/admin/settings', { backup_paused: false })).status, 200);
  t.appliance.ctx.backups.wake();
  const held = await waitFor(
    async () => {
      const s = (await api.get('/admin/backups/status')).body;
      return field(s, 'held_by') !== null ? s : undefined;
    },
    10_000,
    'the due backup to be held',
  );
  assert.equal(field(held, 'held_by'), 'battery');
  assert.equal(field(held, 'last_run'), null, 'no backup ran on battery');

  writeFileSync(join(sysfs, 'AC', 'online'), '1\n');
  writeFileSync(join(sysfs, 'BAT0', 'status'), 'Charging\n');
  t.appliance.ctx.backups.wake();
  const ran = await waitFor(
    async () => {
      const s = (await api.get('/admin/backups/status')).body;
      return (await noOpenRun(api, 'backup')) && field(s, 'last_run') !== null ? s : undefined;
    },
    120_000,
    'the held backup to run on mains',
  );
  assert.equal(field(ran, 'held_by'), null);
  assert.equal(field(ran, 'last_run', 'status'), 'ok');
  assert.equal(field(ran, 'last_run', 'trigger'), 'first');

  // A typo in the time of day is refused with the field named, in words.
  const bad = await api.request('PATCH', '/admin/settings', { backup_time_of_day: '25:00' });
  assert.equal(bad.status, 400);
  assert.equal(field(bad.body, 'error', 'param'), 'backup_time_of_day');
});
