// The pure schedule decision, as a table: when a run is due, when it is the one catch-up run after
// sleep or downtime, and when nothing runs (paused, already running, not yet time).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decideRun, type RunDecision } from '../../../src/backup/schedule.js';

const H = 3_600_000;
const NOW = 1_800_000_000_000;

test('decideRun table', () => {
  const rows: Array<[string, number | null, boolean, boolean, RunDecision]> = [
    // name, lastRunAt, running, paused, expected (interval 6 h)
    ['never ran', null, false, false, 'catch-up'],
    ['never ran but paused', null, false, true, 'none'],
    ['never ran but one is running', null, true, false, 'none'],
    ['just ran', NOW, false, false, 'none'],
    ['5h59m ago', NOW - 6 * H + 60_000, false, false, 'none'],
    ['exactly 6 h ago', NOW - 6 * H, false, false, 'due'],
    ['6h01m ago', NOW - 6 * H - 60_000, false, false, 'due'],
    ['11h59m ago', NOW - 12 * H + 60_000, false, false, 'due'],
    ['exactly 12 h ago: a whole slot missed', NOW - 12 * H, false, false, 'catch-up'],
    ['3 days ago', NOW - 72 * H, false, false, 'catch-up'],
    ['3 days ago but running', NOW - 72 * H, true, false, 'none'],
    ['3 days ago but paused', NOW - 72 * H, false, true, 'none'],
    ['due but running', NOW - 7 * H, true, false, 'none'],
    ['due but paused', NOW - 7 * H, false, true, 'none'],
    ['in the future: the clock went back', NOW + 2 * H, false, false, 'catch-up'],
  ];
  for (const [name, last, running, paused, expected] of rows) {
    assert.equal(decideRun(NOW, last, 6 * H, running, paused), expected, name);
  }
});
