// The maintenance log the GUI shows: with the real restic, a clean run records the steps it ran and
// what `forget --prune` removed and kept, a failing run records where and why it failed; the log is
// capped and a damaged value reads as empty. GET /admin/maintenance shows it per repository after a
// real backup through the admin API (maintenance runs after the backup when due).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { MAINTENANCE_LOG_KEEP, logKey, maintenanceLog, recordMaintenance } from '../../src/backup/maintenance-log.js';
import { runMaintenance } from '../../src/backup/maintenance.js';
import { RETENTION_TAGS } from '../../src/backup/retention.js';
import { createRestic } from '../../src/repository/restic/index.js';
import { ManualClock } from '../../src/clock.js';
import { silentLogger } from '../../src/log/logger.js';
import { openStore } from '../../src/store/open.js';
import { writeConfigValue } from '../../src/store/settings.js';
import { field, waitFor, noOpenRun } from '../harness/api.js';
import { startTestAppliance, type TestAppliance } from '../harness/appliance.js';
import { resticFixture } from '../repository/restic/fixture.js';

let app: TestAppliance | null = null;
after(async () => app?.close());

test('the log records each run: steps, removed and kept, or the failed step and its reason', async (t) => {
  const fx = await resticFixture();
  const db = openStore(':memory:');
  t.after(async () => {
    db.close();
    await fx.cleanup();
  });
  const clock = new ManualClock(Date.parse('2026-06-15T12:30:00Z'));
  const repo = await fx.newRepo('nas');
  const restic = createRestic(fx.rt);
  for (const minutes of [0, 1]) {
    const dir = await fx.dataDir(`gen-${minutes}`, { 'manifest.json': '{}\n' });
    await restic.backup(repo, [dir], { tags: RETENTION_TAGS, host: 'h', time: new Date(clock.now() - minutes * 60_000) });
  }
  assert.deepEqual(maintenanceLog(db, 'nas'), [], 'never ran: an empty log');

  const failed = await runMaintenance(restic, { ...repo, password: 'not-the-passphrase' }, { logger: silentLogger, db, clock });
  assert.equal(failed.ok, false);
  clock.advance(24 * 3_600_000);
  const ok = await runMaintenance(restic, repo, { logger: silentLogger, db, clock });
  assert.deepEqual(ok, { ok: true, removed: 1, kept: 1 }, 'two snapshots in one hour: the older goes');

  const log = maintenanceLog(db, 'nas');
  assert.equal(log.length, 2);
  const [clean, bad] = log;
  assert.deepEqual(clean, {
    repository: 'nas',
    started_at: clock.now() / 1000,
    finished_at: clock.now() / 1000,
    ok: true,
    steps: ['unlock', 'forget', 'check'],
    failed_step: null,
    removed: 1,
    kept: 1,
    error: null,
  });
  assert.equal(bad?.ok, false);
  assert.equal(bad?.failed_step, 'unlock');
  assert.deepEqual(bad?.steps, []);
  assert.equal(bad?.removed, null);
  assert.match(bad?.error ?? '', /passphrase for the repository "nas" was refused/);
});

test('the log keeps the newest runs only; a damaged value reads as an empty log', () => {
  const db = openStore(':memory:');
  try {
    for (let i = 0; i < MAINTENANCE_LOG_KEEP + 5; i++) {
      recordMaintenance(db, {
        repository: 'local',
        started_at: i,
        finished_at: i,
        ok: true,
        steps: ['unlock', 'forget', 'check'],
        failed_step: null,
        removed: 0,
        kept: i,
        error: null,
      });
    }
    const log = maintenanceLog(db, 'local');
    assert.equal(log.length, MAINTENANCE_LOG_KEEP);
    assert.equal(log[0]?.finished_at, MAINTENANCE_LOG_KEEP + 4, 'newest first');
    assert.equal(log.at(-1)?.finished_at, 5, 'the oldest went');
    writeConfigValue(db, logKey('local'), '{not json', 1);
    assert.deepEqual(maintenanceLog(db, 'local'), []);
    writeConfigValue(db, logKey('local'), '[{"repository": "local"}]', 1);
    assert.deepEqual(maintenanceLog(db, 'local'), []);
  } finally {
    db.close();
  }
});

test('GET /admin/maintenance shows the last maintenance per repository after a backup', async () => {
  app = await startTestAppliance();
  const api = app.api;
  const before = await api.get('/admin/maintenance');
  assert.equal(before.status, 200, before.text);
  assert.deepEqual(field(before.body, 'retention'), { hourly: 24, daily: 30, weekly: 8, monthly: 12 });
  assert.equal(field(before.body, 'data', 0, 'repository'), 'local');
  assert.equal(field(before.body, 'data', 0, 'last'), null, 'never ran');
  assert.equal(field(before.body, 'data', 0, 'due_after'), null);

  assert.equal((await api.post('/admin/backups')).status, 202);
  await waitFor(async () => await noOpenRun(api, 'backup'), 60_000, 'the backup to finish');
  const res = await api.get('/admin/maintenance');
  const local = field(res.body, 'data', 0);
  assert.equal(field(local, 'last', 'ok'), true, JSON.stringify(local));
  assert.deepEqual(field(local, 'last', 'steps'), ['unlock', 'forget', 'check']);
  assert.equal(field(local, 'last', 'kept'), 1);
  const okAt = field(local, 'ok_at');
  assert.equal(typeof okAt, 'number');
  assert.equal(field(local, 'due_after'), Number(okAt) + 24 * 3600);
  assert.equal((await api.withToken(null).get('/admin/maintenance')).status, 401);
});
