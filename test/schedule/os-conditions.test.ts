// What the OS says about power and metering, read from its own formats: a power_supply folder laid
// out as Linux's sysfs (written by the test: this machine has no battery), pmset's and busctl's text.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { batteryFromPmset, batteryFromSysfs, meteredFromBusctl } from '../../src/schedule/os-conditions.js';
import { tempDir } from '../harness/data-dir.js';

function powerSupplies(supplies: Record<string, Record<string, string>>): string {
  const root = tempDir();
  for (const [name, files] of Object.entries(supplies)) {
    mkdirSync(join(root, name));
    for (const [file, value] of Object.entries(files)) writeFileSync(join(root, name, file), `${value}\n`);
  }
  return root;
}

test('Linux power supplies (a sysfs layout written by the test): battery, mains, a desktop, nothing', () => {
  assert.equal(batteryFromSysfs(powerSupplies({ AC: { type: 'Mains', online: '0' }, BAT0: { type: 'Battery', status: 'Discharging' } })), true);
  assert.equal(batteryFromSysfs(powerSupplies({ AC: { type: 'Mains', online: '1' }, BAT0: { type: 'Battery', status: 'Charging' } })), false);
  assert.equal(batteryFromSysfs(powerSupplies({ ucsi: { type: 'USB', online: '1' }, BAT1: { type: 'Battery', status: 'Not charging' } })), false);
  assert.equal(batteryFromSysfs(powerSupplies({ BAT0: { type: 'Battery', status: 'Full' } })), false, 'a full battery is on mains');
  assert.equal(batteryFromSysfs(powerSupplies({ AC: { type: 'Mains', online: '1' } })), false, 'a desktop');
  assert.equal(batteryFromSysfs(powerSupplies({})), null, 'a machine that says nothing');
  assert.equal(batteryFromSysfs(join(tempDir(), 'absent')), null);
});

test("macOS pmset and NetworkManager's Metered property", () => {
  assert.equal(batteryFromPmset("Now drawing from 'Battery Power'\n -InternalBattery-0 (id=4653155)\t85%; discharging; 5:12 remaining present: true"), true);
  assert.equal(batteryFromPmset("Now drawing from 'AC Power'\n -InternalBattery-0 (id=4653155)\t100%; charged; 0:00 remaining present: true"), false);
  assert.equal(batteryFromPmset(''), null);
  assert.deepEqual(['u 0', 'u 1', 'u 2', 'u 3', 'u 4', 'garbage'].map(meteredFromBusctl), [null, true, false, true, false, null]);
});
