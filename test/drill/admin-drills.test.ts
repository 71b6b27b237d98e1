// The admin API a GUI uses for drills, on an in-process appliance: POST /admin/drills starts one
// (202 with its id; 409 while it runs), its progress and end arrive on the admin event bus (what
// GET /admin/events streams), then the run, the history, the status and /health/ready show the
// verdict. With a manual clock, the appliance's own schedule runs a deep drill when it is due.
// An appliance stopped mid-drill records the drill as interrupted, and raises no alert.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { openAlerts } from '../../src/store/alerts.js';
import { ManualClock } from '../../src/clock.js';
import { getDrillRun } from '../../src/drill/drill-runs.js';
import { openStore } from '../../src/store/open.js';
import type { AdminEvent } from '../../src/jobs/admin-events.js';
import { field, num, str, waitFor, noOpenRun } from '../harness/api.js';
import { startTestAppliance, type TestAppliance } from '../harness/appliance.js';
import { backupNow } from './kit.js';

let t: TestAppliance | null = null;
after(async () => t?.close());

test('POST /admin/drills, progress events, history, status, health, and a scheduled deep drill', async () => {
  const clock = new ManualClock(Date.now());
  t = await startTestAppliance({ clock, settings: { drill_paused: false } });
  const { api } = t;
  const { ctx } = t.appliance;
  const before = await api.get('/health/ready');
  assert.equal(field(before.body, 'checks', 'drill', 'ok'), false);
  assert.equal(field(before.body, 'checks', 'drill', 'severity'), 'warning');
  assert.match(str(before.body, 'checks', 'drill', 'detail'), /no drill has run yet/);
  const fresh = (await api.get('/admin/drills/status')).body;
  assert.equal(num(fresh, 'next_drill_at'), Math.floor(clock.now() / 1000) + 300, 'the first drill is planned 5 minutes after start');
  assert.equal(await noOpenRun(api, 'drill'), true);
  await backupNow(ctx);

  // An unknown repository is refused at once, not answered with a run that then vanishes.
  const unknown = await api.post('/admin/drills', { repo: 'nowhere' });
  assert.equal(unknown.status, 404, unknown.text);
  assert.equal(field(unknown.body, 'error', 'code'), 'repository_not_found');

  const events: AdminEvent[] = [];
  ctx.adminEvents.subscribe((e) => events.push(e));
  const started = await api.post('/admin/drills', {});
  assert.equal(started.status, 202, started.text);
  const id = num(started.body, 'id');
  assert.equal(field(started.body, 'kind'), 'daily');
  const second = await api.post('/admin/drills', { deep: true });
  assert.equal(second.status, 409);
  assert.equal(field(second.body, 'error', 'code'), 'drill_running');
  const open = (await api.get('/admin/runs?open=true&kind=drill')).body;
  assert.equal(num(open, 'data', 0, 'id'), id, 'the drill is an open run');
  await waitFor(async () => await noOpenRun(api, 'drill'), 60_000, 'the drill to finish');

  // Its checks, one by one, as its run's progress (run.updated): each new check is told at once.
  const progress = events.flatMap((e) =>
    e.type === 'run.updated' && e.data.run_id === id && e.data.progress !== null && 'check' in e.data.progress ? [e.data.progress] : [],
  );
  assert.deepEqual(
    progress.map((p) => [p.index, p.total]),
    [1, 2, 3, 4, 5].map((i) => [i, 5]),
  );
  assert.equal(progress[0]?.check, 'local:repo:open');
  const finished = events.find((e) => e.type === 'drill.finished');
  assert.equal(finished?.data.id, id);
  assert.equal(finished?.data.verdict, 'PASS');

  const run = (await api.get(`/admin/drills/${id}`)).body;
  assert.equal(field(run, 'verdict'), 'PASS');
  assert.equal(field(run, 'trigger'), 'api');
  const checks = field(run, 'checks');
  assert.ok(Array.isArray(checks) && checks.length === 5);
  const list = (await api.get('/admin/drills')).body;
  assert.equal(field(list, 'object'), 'list');
  assert.equal(num(list, 'data', 0, 'id'), id);
  const status = (await api.get('/admin/drills/status')).body;
  assert.equal(field(status, 'last', 'daily', 'verdict'), 'PASS');
  assert.equal(field(status, 'last', 'deep'), null);
  const ready = await api.get('/health/ready');
  assert.equal(field(ready.body, 'checks', 'drill', 'ok'), true);

  assert.equal((await api.post('/admin/drills', { repo: 'nope' })).status, 404);
  assert.equal((await api.post('/admin/drills', { deep: 'yes' })).status, 400);
  assert.equal((await api.post('/admin/drills', { extra: 1 })).status, 400);
  assert.equal((await api.get('/admin/drills/999999')).status, 404);
  assert.equal((await api.get('/admin/drills/abc')).status, 404);
  assert.equal((await api.get('/admin/drills?limit=0')).status, 400);
  assert.equal((await api.withToken(null).get('/admin/drills')).status, 401);
  assert.equal((await api.withToken(null).post('/admin/drills', {})).status, 401);

  // The schedule: the daily drill run by hand does not move the deep one, which has never run: it
  // stays due 5 minutes after start (the next daily would be 24 h after the manual one).
  const next = num(status, 'next_drill_at');
  assert.equal(next, Math.floor(num(fresh, 'next_drill_at')), 'the never-run deep drill keeps its time');
  assert.ok(next < num(run, 'finished_at') + 86_400, 'not moved to 24 h after the manual daily drill');
  assert.equal(num(status, 'next_deep_at'), next, 'no deep drill yet: the next one is deep');
  // next_drill_at is whole seconds, floored: a second later is surely due.
  clock.set((next + 1) * 1000);
  await ctx.drills.wake();
  const scheduled = await waitFor(
    () =>
      ctx.writer
        .prepare<[], { kind: string; verdict: string | null }>(
          "SELECT d.depth AS kind, d.verdict FROM runs r JOIN drill_details d ON d.run_id = r.id WHERE r.trigger = 'schedule' AND r.status = 'ok'",
        )
        .get(),
    120_000,
    'the scheduled drill',
  );
  assert.deepEqual({ ...scheduled }, { kind: 'deep', verdict: 'PASS' });
  const after = (await api.get('/admin/drills/status')).body;
  assert.equal(field(after, 'last', 'deep', 'verdict'), 'PASS');
  assert.ok(num(after, 'next_deep_at') >= num(after, 'next_drill_at') + 6 * 86_400, 'the next deep one is a week away');
});

test('an appliance stopped mid-drill records it as interrupted, with no verdict about the backups and no alert', async () => {
  const app = await startTestAppliance();
  const { ctx } = app.appliance;
  try {
    await backupNow(ctx);
    let seen = false;
    ctx.adminEvents.subscribe((e) => {
      if (e.type === 'run.updated' && e.data.kind === 'drill' && e.data.progress !== null && 'check' in e.data.progress && e.data.progress.index === 3)
        seen = true;
    });
    const started = await app.api.post('/admin/drills', { deep: true });
    assert.equal(started.status, 202);
    await waitFor(() => seen, 60_000, 'the drill to be under way');
    const id = num(started.body, 'id');
    await app.close();
    assert.equal(ctx.writer.open, false, 'the appliance closed its store');
    const reopened = openStore(join(app.dataDir, 'sanad.db'));
    try {
      const run = getDrillRun(reopened, id);
      assert.equal(run?.status, 'interrupted');
      assert.ok((run?.checks.length ?? 0) >= 2, 'the checks it got to are kept');
      assert.deepEqual(
        openAlerts(reopened).filter((a) => a.key.startsWith('drill.')),
        [],
        'a shutdown is not a finding',
      );
    } finally {
      reopened.close();
    }
  } finally {
    await app.close();
  }
});
