// The throttle behind a run's progress (jobs.ts writes it to the run and tells it as run.updated):
// the first report and every change of step always go out, the last held report of a step before
// the next; within a step, at most one report per interval of the injected clock.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ProgressThrottle } from '../../src/jobs/progress-throttle.js';
import { ManualClock } from '../../src/clock.js';

test('progress throttle: first, step changes (after the last held report), then one per interval', () => {
  const clock = new ManualClock(1_000_000);
  const out: string[] = [];
  const t = new ProgressThrottle<{ phase: string; n: number }>(
    clock,
    200,
    (p) => p.phase,
    (p) => out.push(`${p.phase}${p.n}`),
  );
  t.push({ phase: 'a', n: 1 });
  t.push({ phase: 'a', n: 2 });
  clock.advance(199);
  t.push({ phase: 'a', n: 3 });
  t.push({ phase: 'b', n: 4 });
  clock.advance(100);
  t.push({ phase: 'b', n: 5 });
  clock.advance(100);
  t.push({ phase: 'b', n: 6 });
  for (let i = 0; i < 100; i++) t.push({ phase: 'b', n: 7 });
  // a3 was held back, and goes out before b4: the step a is seen to its end.
  assert.deepEqual(out, ['a1', 'a3', 'b4', 'b6']);
});
