// The drill's bookkeeping on a real store, without restic: the runs and drill_details rows
// (interrupted runs, bounded history), the read-subset rotation (n = previous % t + 1, an unverified
// read does not advance, a damaged subset stays listed until it reads clean, a new t restarts at 1),
// and which pass clears which alert.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openAlerts } from '../../src/store/alerts.js';
import { ManualClock, unixSeconds } from '../../src/clock.js';
import { applyDrillAlerts, covers } from '../../src/drill/drill-alerts.js';
import { getDrillRun, listDrillRuns } from '../../src/drill/drill-runs.js';
import { settleRunsHere } from '../../src/jobs/leftovers.js';
import { pruneRuns } from '../../src/jobs/runs.js';
import { silentLogger } from '../../src/log/logger.js';
import { drillRow, runDir } from '../harness/run-rows.js';
import { planSubset, recordSubsets } from '../../src/drill/read-subset.js';
import type { DrillKind, Verdict } from '../../src/drill/verdict.js';
import { currentVersion } from '../../src/store/migrate.js';
import { openStore, type Db } from '../../src/store/open.js';

function store(): Db {
  return openStore(':memory:');
}

test('drill runs: the tables refuse nonsense, and a run whose process died is settled interrupted', async () => {
  const db = store();
  assert.ok(currentVersion(db) >= 21);
  assert.throws(() => db.prepare("INSERT INTO runs(kind, trigger, status, started_at) VALUES ('weekly', 'x', 'running', 1)").run(), /CHECK/);
  assert.throws(() => db.prepare("INSERT INTO runs(kind, trigger, status, started_at) VALUES ('drill', 'x', 'finished', 1)").run(), /CHECK/);
  const id = Number(db.prepare("INSERT INTO runs(kind, trigger, status, started_at) VALUES ('drill', 'x', 'ok', 1)").run().lastInsertRowid);
  assert.throws(() => db.prepare("INSERT INTO drill_details(run_id, depth, verdict) VALUES (?, 'daily', 'OK')").run(id), /CHECK/);
  const left = drillRow(db, { kind: 'deep', trigger: 'schedule', startedAt: 10 });
  // Its process dies: the OS drops the lock; the row still says running.
  left.run.lock.release();
  const settled = await settleRunsHere({ db, dataDir: runDir(db), clock: new ManualClock(20_000), logger: silentLogger });
  assert.deepEqual(
    settled.runs.map((r) => [r.id, r.status]),
    [[left.run.id, 'interrupted']],
  );
  const run = getDrillRun(db, left.run.id);
  assert.equal(run?.status, 'interrupted');
  assert.equal(run?.verdict, 'UNVERIFIED');
  assert.match(run?.checks[0]?.detail ?? '', /stopped before it finished/);
  db.close();
});

test('history keeps the newest 500 finished runs', () => {
  const db = store();
  for (let i = 0; i < 510; i++) {
    drillRow(db, { kind: 'daily', trigger: 't', startedAt: i }).finish(
      'PASS',
      [{ name: 'local:repo:open', status: 'pass', code: 'drill.lock.none', params: {}, detail: 'ok' }],
      i,
    );
  }
  assert.equal(pruneRuns(db, 'drill', 500), 10);
  assert.equal(db.prepare<[], { n: number }>('SELECT COUNT(*) AS n FROM drill_details').get()?.n, 500, 'their details went with them');
  const runs = listDrillRuns(db, 1000);
  assert.equal(runs.length, 500);
  assert.equal(runs[0]?.started_at, 509, 'newest first, the newest kept');
  assert.deepEqual(runs[0]?.checks, [{ name: 'local:repo:open', status: 'pass', code: 'drill.lock.none', params: {}, detail: 'ok' }]);
  db.close();
});

test('the read rotation: 1..t in turn, unverified stays, damage is re-read until clean, a new t restarts', () => {
  const db = store();
  const seen: string[] = [];
  for (let i = 0; i < 5; i++) {
    const plan = planSubset(db, 'local', 3);
    seen.push(plan.subset);
    recordSubsets(db, 'local', 3, { [plan.subset]: 'pass' }, plan.n, i);
  }
  assert.deepEqual(seen, ['1/3', '2/3', '3/3', '1/3', '2/3']);

  const stuck = planSubset(db, 'local', 3);
  assert.equal(stuck.subset, '3/3');
  recordSubsets(db, 'local', 3, { '3/3': 'unverified' }, null, 9);
  assert.equal(planSubset(db, 'local', 3).subset, '3/3', 'a read that could not finish is tried again');

  recordSubsets(db, 'local', 3, { '3/3': 'fail' }, 3, 10);
  const after = planSubset(db, 'local', 3);
  assert.deepEqual([after.subset, after.recheck], ['1/3', ['3/3']], 'the rotation moves on, the damaged subset is re-read');
  recordSubsets(db, 'local', 3, { '1/3': 'pass', '3/3': 'fail' }, 1, 11);
  assert.deepEqual(planSubset(db, 'local', 3).recheck, ['3/3'], 'still damaged');
  recordSubsets(db, 'local', 3, { '3/3': 'pass' }, null, 12);
  assert.deepEqual(planSubset(db, 'local', 3).recheck, [], 'clean again: off the list');

  assert.equal(planSubset(db, 'local', 8).subset, '1/8', 'another t: the groups are new, start at 1');
  assert.equal(planSubset(db, 'offsite', 3).subset, '1/3', 'each repository rotates on its own');
  db.close();
});

test('alerts: FAIL critical, UNVERIFIED warning; only a pass that covers what raised them clears them', () => {
  const db = store();
  const clock = new ManualClock(Date.parse('2026-03-01T00:00:00Z'));
  const run = (kind: DrillKind, repo: string | null, verdict: Verdict): void => {
    const checks =
      verdict === 'PASS'
        ? []
        : [
            {
              name: 'local:read-data',
              status: verdict === 'FAIL' ? ('fail' as const) : ('unverified' as const),
              code: 'said.text',
              params: { text: 'x' },
              detail: 'x',
            },
          ];
    const row = drillRow(db, { kind, trigger: 't', repo, startedAt: unixSeconds(clock) });
    row.finish(verdict, checks, unixSeconds(clock));
    applyDrillAlerts(db, clock, { id: row.run.id, kind, repo, verdict, checks });
    clock.advance(1000);
  };
  const open = (): string[] =>
    openAlerts(db)
      .map((a) => `${a.key}:${a.severity}`)
      .sort();

  assert.ok(covers({ kind: 'deep', repo: null }, { kind: 'daily', repo: 'local' }));
  assert.ok(!covers({ kind: 'daily', repo: null }, { kind: 'deep', repo: null }));
  assert.ok(!covers({ kind: 'deep', repo: 'offsite' }, { kind: 'deep', repo: 'local' }));

  run('deep', null, 'FAIL');
  assert.deepEqual(open(), ['drill.failed:critical']);
  assert.match(openAlerts(db)[0]?.message ?? '', /deep drill found damage in the backups: local:read-data/);
  run('daily', null, 'PASS');
  assert.deepEqual(open(), ['drill.failed:critical'], 'a daily pass never read the packs the deep drill found damaged');
  run('deep', 'offsite', 'PASS');
  assert.deepEqual(open(), ['drill.failed:critical'], 'a pass of another repository proves nothing about this one');
  run('deep', null, 'PASS');
  assert.deepEqual(open(), [], 'a whole deep pass clears it');

  run('daily', 'local', 'UNVERIFIED');
  assert.deepEqual(open(), ['drill.unverified:warning']);
  run('daily', 'local', 'PASS');
  assert.deepEqual(open(), []);
  db.close();
});
