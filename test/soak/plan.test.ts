// The soak's fault schedule is the seed's: the same seed replays the same faults at the same
// moments with the same sizes, another seed draws another schedule, and an hour's run meets every
// kind of fault, one every 8 to 20 seconds, with none in the quiet end.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FAULTS, jumpHours, schedule } from '../../soak/plan.js';

const HOUR = 3_600_000;

test('a seed draws one fault schedule, the same every time, and an hour of it meets every fault', () => {
  const plan = schedule(42, HOUR);
  assert.deepEqual(schedule(42, HOUR), plan, 'the same seed replays the same schedule');
  assert.notDeepEqual(schedule(43, HOUR), plan, 'another seed draws another');
  assert.deepEqual(
    schedule(42, 10 * 60_000),
    plan.filter((p) => p.at < 10 * 60_000 - 15_000),
    'a shorter run is the start of the same schedule',
  );

  assert.deepEqual(new Set(plan.map((p) => p.fault)), new Set(FAULTS), 'every kind of fault');
  let before = 0;
  for (const p of plan) {
    assert.ok(p.at - before >= 8_000 && p.at - before <= 20_000, `a gap of ${p.at - before} ms`);
    before = p.at;
  }
  assert.ok((plan.at(-1)?.at ?? HOUR) < HOUR - 15_000, 'nothing in the last 15 s');
  const jumps = plan.filter((p) => p.fault === 'clock-jump').map((p) => jumpHours(p.size));
  assert.ok(jumps.includes(25) && jumps.some((h) => h < 4), `jumps of an hour or more and of a day: ${jumps.join(', ')}`);
});
