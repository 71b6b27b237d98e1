// Accepting and snoozing alerts through POST /admin/alerts/{key}/acknowledge on an in-process
// appliance with a ManualClock: a warning accepted stays listed with accepted_at and reaches the
// status and the alerts.changed event; a critical alert cannot be accepted (400) but can be snoozed;
// a snooze ends by itself; a resolved alert forgets what was said, so its next occurrence is news;
// an unknown key is 404, a bad body 400 in the contract's shape.
import { say } from '../../src/contract/said/index.js';
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { raiseAlert, resolveAlert } from '../../src/store/alerts.js';
import { ManualClock } from '../../src/clock.js';
import type { AdminEvent } from '../../src/jobs/admin-events.js';
import { field, type Api } from '../harness/api.js';
import { startTestAppliance, type TestAppliance } from '../harness/appliance.js';

let t: TestAppliance | null = null;
after(() => t?.close());

const WARN = 'backup.maintenance_failed:local';
const CRIT = 'backup.failed';

async function shown(api: Api, key: string): Promise<unknown> {
  const list = await api.get('/admin/alerts');
  assert.equal(list.status, 200, list.text);
  const data = field(list.body, 'data');
  assert.ok(Array.isArray(data));
  return data.find((a: unknown) => field(a, 'key') === key && field(a, 'resolved_at') === null);
}

test('alerts: accept a warning, snooze a critical one, a snooze ends, a resolved alert forgets, errors in the contract shape', async () => {
  const clock = new ManualClock(Date.parse('2026-06-01T10:00:00Z'));
  t = await startTestAppliance({ clock });
  const { ctx } = t.appliance;
  const api = t.api;
  raiseAlert(ctx.writer, clock, WARN, 'warning', say('said.text', { text: 'Maintenance of "local" failed at prune: disk busy' }));
  raiseAlert(ctx.writer, clock, CRIT, 'critical', say('said.text', { text: 'The last backup failed: restic exited 1' }));
  assert.equal(field(await shown(api, WARN), 'accepted_at'), null);
  assert.equal(field(await shown(api, WARN), 'snoozed_until'), null);

  const events: AdminEvent[] = [];
  const unsubscribe = ctx.adminEvents.subscribe((e) => events.push(e));
  const accepted = await api.post(`/admin/alerts/${encodeURIComponent(WARN)}/acknowledge`, { action: 'accept' });
  assert.equal(accepted.status, 200, accepted.text);
  const nowS = Math.floor(clock.now() / 1000);
  assert.equal(field(accepted.body, 'accepted_at'), nowS);
  assert.equal(field(await shown(api, WARN), 'accepted_at'), nowS, 'still listed, marked accepted');
  const status = await api.get('/admin/backups/status');
  const statusAlerts = field(status.body, 'alerts');
  assert.ok(Array.isArray(statusAlerts));
  const inStatus: unknown = statusAlerts.find((a: unknown) => field(a, 'key') === WARN);
  assert.equal(field(inStatus, 'accepted_at'), nowS, 'the status (the tray reads it) says so too');
  const changed = events.find((e) => e.type === 'alerts.changed');
  assert.ok(changed, 'the GUI and the tray are told');
  unsubscribe();

  const refused = await api.post(`/admin/alerts/${encodeURIComponent(CRIT)}/acknowledge`, { action: 'accept' });
  assert.equal(refused.status, 400, refused.text);
  assert.equal(field(refused.body, 'error', 'code'), 'alert_critical');
  assert.match(String(field(refused.body, 'error', 'message')), /cannot be accepted.*snooze/);
  assert.equal(field(await shown(api, CRIT), 'accepted_at'), null);

  const snoozed = await api.post(`/admin/alerts/${encodeURIComponent(CRIT)}/acknowledge`, { action: 'snooze', hours: 24 });
  assert.equal(snoozed.status, 200, snoozed.text);
  assert.equal(field(snoozed.body, 'snoozed_until'), nowS + 24 * 3600);
  clock.advance(24 * 3_600_000 - 1000);
  assert.equal(field(await shown(api, CRIT), 'snoozed_until'), nowS + 24 * 3600, 'a second before the end: still snoozed');
  clock.advance(1000);
  assert.equal(field(await shown(api, CRIT), 'snoozed_until'), null, 'the snooze is over by itself');

  for (const [body, param] of [
    [{ action: 'snooze', hours: 0 }, 'hours'],
    [{ action: 'forget' }, 'action'],
    [{ action: 'accept', extra: 1 }, null],
  ] as const) {
    const bad = await api.post(`/admin/alerts/${encodeURIComponent(WARN)}/acknowledge`, body);
    assert.equal(bad.status, 400, `${JSON.stringify(body)}: ${bad.text}`);
    assert.equal(field(bad.body, 'error', 'type'), 'invalid_request_error');
    if (param !== null) assert.equal(field(bad.body, 'error', 'param'), param);
  }
  const missing = await api.post(`/admin/alerts/${encodeURIComponent('no.such')}/acknowledge`, { action: 'accept' });
  assert.equal(missing.status, 404, missing.text);
  assert.equal(field(missing.body, 'error', 'code'), 'alert_not_found');

  // Resolved and raised again: a new occurrence, news again.
  resolveAlert(ctx.writer, clock, WARN);
  raiseAlert(ctx.writer, clock, WARN, 'warning', say('said.text', { text: 'Maintenance of "local" failed at check: again' }));
  assert.equal(field(await shown(api, WARN), 'accepted_at'), null, 'the acceptance went with the old occurrence');

  // Undo.
  assert.equal((await api.post(`/admin/alerts/${encodeURIComponent(WARN)}/acknowledge`, { action: 'accept' })).status, 200);
  const cleared = await api.post(`/admin/alerts/${encodeURIComponent(WARN)}/acknowledge`, { action: 'clear' });
  assert.equal(cleared.status, 200, cleared.text);
  assert.equal(field(cleared.body, 'accepted_at'), null);
  assert.equal(field(await shown(api, WARN), 'accepted_at'), null);
});
