// The time machine in real Chromium against a real appliance (real restic, the real keyring): the
// protection timeline on the Overview draws a three-day gap between an older backup and today's;
// on the Backups screen a generation is opened, searched, compared with the live data, and a
// response deleted since is brought back (asked first) — then it is in the live data with every
// event, through the API — and the record shows it. English and Arabic, screenshots of each.
// Screenshots: timeline-en/ar, generation-en/ar.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { backupDepsFor } from '../../src/backup/backup-deps.js';
import { backupHere } from '../../src/jobs/run-here.js';
import { ManualClock, systemClock } from '../../src/clock.js';
import { silentLogger } from '../../src/log/logger.js';
import { field, str } from '../harness/api.js';
import { startTestAppliance, type TestAppliance } from '../harness/appliance.js';
import { openGui, type Gui } from './browser.js';

let t: TestAppliance | null = null;
let gui: Gui | null = null;
after(async () => {
  await gui?.close();
  await t?.close();
});

async function backupAt(app: TestAppliance, ms: number): Promise<number> {
  const ctx = app.appliance.ctx;
  const deps = await backupDepsFor({ db: ctx.writer, dataDir: ctx.dataDir, store: ctx.secrets.store, clock: new ManualClock(ms), logger: silentLogger });
  const outcome = await backupHere(deps, { trigger: 'test' });
  assert.equal(outcome.status, 'ok', JSON.stringify(outcome));
  assert.ok(outcome.generation !== null);
  return outcome.generation;
}

test('the timeline draws the gap; a generation is opened, searched, compared, and a deleted response brought back', async () => {
  t = await startTestAppliance();
  const { api } = t;
  const keep = await api.post('/v1/responses', { model: 'tiny', input: 'a question to keep', max_output_tokens: 6 });
  const lost = await api.post('/v1/responses', { model: 'tiny', input: 'forget this question', max_output_tokens: 6 });
  assert.equal(lost.status, 200, lost.text);
  const lostId = str(lost.body, 'id');
  assert.equal(keep.status, 200);
  const older = await backupAt(t, systemClock.now() - 3 * 86_400_000);
  assert.equal((await api.delete(`/v1/responses/${lostId}`)).status, 200);
  await backupAt(t, systemClock.now());

  gui = await openGui(t.appliance.loginUrl());
  const { page } = gui;
  // --- The Overview's timeline: two marks in "local", the gap between them hatched and focusable.
  const timeline = page.getByTestId('protection-timeline');
  await timeline.getByTestId('timeline-mark').nth(1).waitFor({ timeout: 20_000 });
  assert.equal(await timeline.getByTestId('timeline-row-local').getByTestId('timeline-mark').count(), 2);
  const gap = timeline.getByTestId('timeline-row-local').getByTestId('timeline-gap');
  assert.equal(await gap.count(), 1, 'the three days without a backup are one gap');
  await gap.focus();
  assert.match((await timeline.getByTestId('timeline-detail').textContent()) ?? '', /^No backup in “local” for 3 days/);
  await gui.screenshot('timeline-en');

  // --- Backups: look inside the older generation.
  await page.getByTestId('nav-backups').click();
  await page.getByTestId(`inside-local-${older}`).click();
  await page.getByTestId('generation-counts').waitFor({ timeout: 30_000 });
  assert.match((await page.getByTestId('generation-counts').textContent()) ?? '', /Responses2/);
  await page.getByTestId('generation-search').fill('forget');
  await page.getByTestId('generation-search').press('Enter');
  await page.getByTestId('generation-found').waitFor();
  assert.equal(await page.getByTestId('generation-found').textContent(), '1 matching');
  const row = page.locator(`[data-response="${lostId}"]`);
  assert.equal(await row.getAttribute('data-live'), 'deleted');
  assert.equal(await row.locator('[data-status="completed"]').textContent(), 'Completed', 'the stored state in words, not its raw value');
  await page.getByTestId('generation-compare').click();
  await page.getByTestId('generation-diff').waitFor();
  assert.match((await page.getByTestId('generation-diff').textContent()) ?? '', /Responses: 0 added · 1 removed · 0 changed/);
  // Compare says which: the removed response by what was asked, with its id.
  await page.getByTestId('diff-responses').locator('summary').click();
  const removed = page.getByTestId('diff-responses').locator(`[data-diff-item="${lostId}"]`);
  await removed.waitFor();
  assert.equal(await removed.getAttribute('data-change'), 'removedWord');
  assert.match((await removed.textContent()) ?? '', new RegExp(`^removed forget this question ${lostId}$`));
  await gui.screenshot('generation-en');

  // Bring it back: a deleted one asks first.
  await page.getByTestId(`undelete-${lostId}`).click();
  await page.getByRole('button', { name: 'Bring it back' }).click();
  await page.getByTestId('bring-back-result').waitFor();
  assert.equal(await page.getByTestId('bring-back-result').textContent(), 'Brought back.');
  const back = await api.get(`/v1/responses/${lostId}`);
  assert.equal(back.status, 200, 'the response is in the live data again');
  const events = await api.get(`/v1/tasks/${str(back.body, 'task_id')}/events?limit=1000`);
  const data = field(events.body, 'data');
  assert.ok(Array.isArray(data) && data.length > 3, 'with its events');
  await page.getByTestId('bring-back-record').getByText(lostId, { exact: false }).waitFor();

  // --- Arabic: the same view right to left, and the timeline mirrored.
  await page.getByTestId('language-switch').click();
  await page.locator('html[dir="rtl"]').waitFor();
  await gui.screenshot('generation-ar');
  await page.getByTestId('nav-overview').click();
  await page.getByTestId('protection-timeline').getByTestId('timeline-mark').nth(1).waitFor();
  const xs: number[] = [];
  const marks = page.getByTestId('timeline-row-local').getByTestId('timeline-mark');
  for (let i = 0; i < 2; i++) xs.push(Number(await marks.nth(i).getAttribute('x')));
  assert.ok((xs[1] ?? 0) < (xs[0] ?? 0), `in Arabic the newer mark is further left (${xs.join(', ')})`);
  await gui.screenshot('timeline-ar');
});
