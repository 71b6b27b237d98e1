// The clock `sanad serve` runs on: the wall clock, unless SANAD_TEST_CLOCK_OFFSET_FILE names a file
// whose number moves it (the soak's clock jump). A change to the file is seen within a fifth of a
// second; a file that is gone or unreadable counts as no offset.
import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { test } from 'node:test';
import { serviceClock, systemClock } from '../../src/clock.js';
import { tempDir } from '../harness/data-dir.js';

const HOUR = 3_600_000;
const near = (actual: number, expected: number): boolean => Math.abs(actual - expected) < 1_000;

test('serve runs on the wall clock unless the offset file is named, and then follows the file', async () => {
  assert.equal(serviceClock({}), systemClock);
  assert.equal(serviceClock({ SANAD_TEST_CLOCK_OFFSET_FILE: '' }), systemClock);

  const file = join(tempDir('sanad-clock-'), 'offset');
  writeFileSync(file, String(2 * HOUR));
  const clock = serviceClock({ SANAD_TEST_CLOCK_OFFSET_FILE: file });
  assert.ok(near(clock.now(), Date.now() + 2 * HOUR), 'two hours ahead');

  writeFileSync(file, String(27 * HOUR));
  await sleep(250);
  assert.ok(near(clock.now(), Date.now() + 27 * HOUR), 'the jump is seen within a fifth of a second');

  writeFileSync(file, 'not a number');
  await sleep(250);
  assert.ok(near(clock.now(), Date.now()), 'an unreadable number is no offset');
  rmSync(file);
  await sleep(250);
  assert.ok(near(clock.now(), Date.now()), 'a missing file is no offset');
});
