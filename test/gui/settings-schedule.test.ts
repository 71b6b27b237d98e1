// Settings → the schedule and retention, as a person sets them, in real Chromium against a real
// `sanad serve` with real restic: once a day at a time of day, not on battery; the Backups screen
// then says so in the reader's way of writing times; a cleared time is refused in the person's
// language under its field (no browser bubble); retention changed, previewed against the real
// repository (restic forget --dry-run) and saved. English and Arabic, axe-clean.
// Screenshots: settings-schedule-en, backups-schedule-en, settings-schedule-ar.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { field, waitFor, noOpenRun } from '../harness/api.js';
import { prepareDataDir } from '../harness/data-dir.js';
import { startServiceProcess, type ServiceProcess } from '../harness/service-process.js';
import { axeViolations } from './axe.js';
import { openGui, type Gui } from './browser.js';
import { latinRuns, proseOf } from './latin-runs.js';

let service: ServiceProcess | null = null;
let gui: Gui | null = null;
after(async () => {
  await gui?.close();
  await service?.kill();
});

async function backUp(s: ServiceProcess): Promise<void> {
  assert.equal((await s.api.post('/admin/backups')).status, 202);
  await waitFor(
    async () => {
      const status = (await s.api.get('/admin/backups/status')).body;
      return (await noOpenRun(s.api, 'backup')) && field(status, 'last_run', 'status') !== 'running' && field(status, 'last_run') !== null ? true : undefined;
    },
    120_000,
    'the backup to finish',
  );
}

test('Settings: a backup once a day at a time, not on battery; a cleared time refused in words; retention previewed and saved (en, ar)', async () => {
  const prepared = await prepareDataDir();
  service = await startServiceProcess(prepared.dataDir, prepared.adminToken);
  for (let i = 0; i < 3; i++) await backUp(service);
  gui = await openGui(service.loginUrl);
  const { page } = gui;

  await page.getByTestId('nav-settings').click();
  const form = page.getByTestId('settings-schedules');
  await form.waitFor();
  await page.getByTestId('settings-when-daily').check();
  await page.locator('#settings-time-of-day').fill('03:15');
  await page.getByTestId('settings-skip-battery').check();
  await form.getByRole('button', { name: 'Save' }).click();
  await waitFor(async () => ((await page.getByTestId('settings-save-state').textContent()) === 'Saved.' ? true : undefined), 10_000, 'Saved.');
  const saved = (await service.api.get('/admin/settings')).body;
  assert.deepEqual(
    [field(saved, 'backup_time_of_day'), field(saved, 'backup_skip_on_battery'), field(saved, 'backup_skip_on_metered')],
    ['03:15', true, false],
  );
  const status = (await service.api.get('/admin/backups/status')).body;
  assert.equal(field(status, 'interval_hours'), 24, 'a daily schedule is 24 hours between backups for every age check');
  assert.equal(field(status, 'time_of_day'), '03:15');

  // Retention: keep one daily and no hourly: the preview asks restic and names what would go.
  await page.getByTestId('retention-retention_keep_hourly').fill('0');
  await page.getByTestId('retention-retention_keep_daily').fill('1');
  // As many as restic says: three asked for, or four when the data dir's own first backup did not
  // meet the first of them (which one wins that race depends on the machine's load).
  // Asked again while the repository is locked: a backup's maintenance can still hold restic's
  // lock for a moment after its run row is final (a loaded CI machine met it).
  const api = service.api;
  const asked = await waitFor(
    async () => {
      const answer = await api.post('/admin/retention/preview', { retention_keep_hourly: 0, retention_keep_daily: 1 });
      return /"restic\.locked"/.test(answer.text) ? undefined : answer;
    },
    60_000,
    'the repository to be free for a retention preview',
  );
  const removed = field(asked.body, 'repositories', 0, 'remove');
  assert.ok(Array.isArray(removed) && removed.length >= 2, asked.text);
  await page.getByTestId('retention-preview-button').click();
  const preview = page.getByTestId('retention-preview');
  await waitFor(
    async () => (new RegExp(`${removed.length} backups would be removed`).test((await preview.textContent()) ?? '') ? true : undefined),
    60_000,
    'the preview to name what restic would remove',
  );
  await page.getByTestId('retention-save').click();
  await waitFor(async () => ((await page.getByTestId('retention-saved').textContent()) !== '' ? true : undefined), 10_000, 'retention saved');
  const kept = (await service.api.get('/admin/settings')).body;
  assert.deepEqual([field(kept, 'retention_keep_hourly'), field(kept, 'retention_keep_daily')], [0, 1]);
  assert.deepEqual(await axeViolations(page, 'main'), []);
  await gui.screenshot('settings-schedule-en');

  await page.getByTestId('nav-backups').click();
  const schedule = page.getByTestId('backups-schedule');
  await schedule.filter({ hasText: 'A backup every day at 3:15 AM' }).waitFor({ timeout: 10_000 });
  assert.equal(await schedule.textContent(), 'A backup every day at 3:15 AM');
  assert.equal(await page.getByTestId('backups-holds').textContent(), 'Scheduled backups wait while this computer runs on battery.');
  await gui.screenshot('backups-schedule-en');

  await page.getByTestId('language-switch').click();
  await page.getByTestId('nav-settings').click();
  await form.waitFor();
  assert.equal(await page.getByTestId('settings-when-daily').isChecked(), true, 'the saved choice is shown');
  await page.locator('#settings-time-of-day').fill('');
  await form.getByRole('button', { name: 'حفظ' }).click();
  const note = page.locator('#settings-backup_time_of_day-error');
  await note.waitFor({ timeout: 10_000 });
  assert.equal(await note.textContent(), 'أدخل وقتًا بالساعات والدقائق، مثل 02:30.');
  assert.equal(await page.locator('#settings-time-of-day').getAttribute('aria-invalid'), 'true');
  assert.equal(field((await service.api.get('/admin/settings')).body, 'backup_time_of_day'), '03:15', 'nothing was saved');
  assert.deepEqual(latinRuns(await proseOf(page, '[data-testid="settings-schedules"]')), [], "the form is Arabic but for a program's name (isolated)");
  assert.deepEqual(await axeViolations(page, 'main'), []);
  await gui.screenshot('settings-schedule-ar');

  await page.getByTestId('nav-backups').click();
  await schedule.filter({ hasText: 'نسخة احتياطية كل يوم' }).waitFor({ timeout: 10_000 });
  // Digits as the rest of the Arabic GUI writes them (Intl's `ar`: Latin or Arabic-Indic, by ICU version).
  assert.match((await schedule.textContent()) ?? '', /^نسخة احتياطية كل يوم في (3|٣):(15|١٥) ص$/);
});
