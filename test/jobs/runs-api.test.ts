// Following a run by the id its start route answered, as a client does: POST /admin/backups names
// the run; GET /admin/events?run=ID carries only that run's events (its progress, then run.finished,
// each with its run_id; run.updated carries the progress written to the record), GET /admin/runs/{id}
// reads the one record with the backup's details, and ?open=true lists it only while it is open.
// A real appliance, real restic. Also the refusals: a kind that does not exist, an id that is not one.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { field, num, waitFor } from '../harness/api.js';
import { startTestAppliance, type TestAppliance } from '../harness/appliance.js';
import { readSse, type SseFrame } from '../harness/sse.js';

let t: TestAppliance | null = null;

/** The ids of a list answer's runs. */
function idsIn(body: unknown): unknown[] {
  const data = field(body, 'data');
  assert.ok(Array.isArray(data));
  return data.map((r: unknown) => field(r, 'id'));
}
after(async () => t?.close());

test('a backup is followed by its run id: its own events only, run.finished, and the one record with its copies', async () => {
  t = await startTestAppliance();
  const { api } = t;
  const url = `${api.url}/admin/events?run=`;
  const headers = { authorization: `Bearer ${t.adminToken}` };
  // Another run's events must not reach a client following this one: a drill runs beside the backup.
  const drill = await api.post('/admin/drills', {});
  assert.equal(drill.status, 202, drill.text);
  const asked = await api.post('/admin/backups');
  assert.equal(asked.status, 202, asked.text);
  const id = num(asked.body, 'run_id');
  const openNow = await api.get('/admin/runs?open=true');
  const openIds = idsIn(openNow.body);
  assert.ok(openIds.includes(id), `the backup just asked for is open: ${openNow.text}`);
  const stream = readSse(`${url}${id}`, { headers }, (frame) => frame.event === 'run.finished', 180_000);
  const { status, frames } = await stream;
  assert.equal(status, 200);
  const events = frames.filter((f: SseFrame) => f.event !== 'ready');
  assert.ok(events.length > 0, 'the run said something');
  for (const e of events) assert.equal(field(e.data, 'data', 'run_id'), id, `${String(e.event)} belongs to run ${id}`);
  assert.notEqual(num(drill.body, 'id'), id, 'the drill is a run of its own');
  const end = events.at(-1);
  assert.equal(end?.event, 'run.finished');
  assert.equal(field(end?.data, 'data', 'status'), 'ok');
  // Its progress is in its record, told as run.updated: every step of the backup, in order.
  const updates = events.filter((e) => e.event === 'run.updated');
  const phases = updates.map((e) => field(e.data, 'data', 'progress', 'phase'));
  assert.ok(phases.includes('generation') && phases.includes('upload'), `the steps were told: ${JSON.stringify(phases)}`);
  assert.ok(updates.every((e) => field(e.data, 'data', 'status') === 'running'));
  assert.equal(field(end?.data, 'data', 'progress'), null, 'an ended run carries no progress');
  // The maintenance after this first backup is a run of its own, which ends soon after it.
  const maintenance = await waitFor(
    async () => {
      const run = field((await api.get('/admin/runs?kind=maintenance&limit=1')).body, 'data', 0);
      return run !== undefined && field(run, 'status') !== 'running' && field(run, 'status') !== 'queued' ? run : undefined;
    },
    60_000,
    'the maintenance run to end',
  );
  assert.equal(field(maintenance, 'status'), 'ok', JSON.stringify(maintenance));
  assert.equal(field(maintenance, 'trigger'), 'after-backup');
  assert.ok(num(maintenance, 'id') > id, 'it ran after the backup');
  const stillOpen = idsIn((await api.get('/admin/runs?open=true')).body);
  assert.ok(!stillOpen.includes(id), 'an ended run is not open');

  const run = await api.get(`/admin/runs/${id}`);
  assert.equal(run.status, 200, run.text);
  assert.equal(field(run.body, 'kind'), 'backup');
  assert.equal(field(run.body, 'status'), 'ok');
  assert.equal(field(run.body, 'trigger'), 'manual');
  assert.ok(num(run.body, 'ended_at') >= num(run.body, 'started_at'), 'one unit, in order');
  assert.equal(field(run.body, 'backup', 'copies', 0, 'repository'), 'local');
  assert.equal(field(run.body, 'backup', 'copies', 0, 'ok'), 1);
  const list = await api.get('/admin/runs?kind=backup&limit=1');
  assert.equal(field(list.body, 'data', 0, 'id'), id, 'newest first');
  assert.equal(field(list.body, 'data', 0, 'generation'), field(run.body, 'generation'));

  assert.equal((await api.get('/admin/runs?kind=weekly')).status, 400, 'no such kind');
  assert.equal((await api.get('/admin/runs?limit=0')).status, 400);
  assert.equal((await api.get('/admin/runs/999999')).status, 404);
  assert.equal(field((await api.get('/admin/runs/restore_ab12')).body, 'error', 'code'), 'run_not_found', 'an old-style id is simply not a run');
  assert.equal((await api.get('/admin/events?run=abc')).status, 400, 'a run filter must be a run id');
});
