// Backups, drills and restore in real Chromium against a real `sanad serve` (real restic, the real
// keyring, a model big enough that restic reports progress): back up now and watch the bar and the
// new generation; run a daily drill and see PASS; restore into a folder that does not exist yet
// (a non-empty one is refused before the click) and see the checklist; open the restored data and
// land on the restarted service, signed in. Every step is checked through the API as well.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { field, str, waitFor } from '../harness/api.js';
import { prepareDataDir, tempDir } from '../harness/data-dir.js';
import { startServiceProcess, type ServiceProcess } from '../harness/service-process.js';
import { tinyModelPath } from '../fixtures/tiny-model.js';
import type { Locator } from 'playwright-core';
import { latinRuns, proseOf } from './latin-runs.js';
import { openGui, type Gui } from './browser.js';

let service: ServiceProcess | null = null;
let gui: Gui | null = null;
after(async () => {
  await gui?.close();
  await service?.kill();
});

const MODEL_MIB = 160;

/** One attribute of every element a locator matches, in order. */
async function attributes(locator: Locator, name: string): Promise<Array<string | null>> {
  const out: Array<string | null> = [];
  for (let i = 0, n = await locator.count(); i < n; i++) out.push(await locator.nth(i).getAttribute(name));
  return out;
}

test('back up now with progress, a daily drill PASS, restore with its checklist, open the restored data', async () => {
  const prepared = await prepareDataDir();
  service = await startServiceProcess(prepared.dataDir, prepared.adminToken);
  const { api } = service;
  // restic reports progress twice a second: a model this size keeps it busy long enough to see.
  const big = join(tempDir('sanad-gui-model-'), 'big.gguf');
  writeFileSync(big, Buffer.concat([readFileSync(await tinyModelPath(1)), randomBytes(MODEL_MIB * 1024 * 1024)]));
  assert.equal((await api.post('/admin/models', { path: big, id: 'big' })).status, 201);

  gui = await openGui(service.loginUrl);
  const { page } = gui;
  const focusedTestId = async (): Promise<unknown> => page.evaluate("document.activeElement ? document.activeElement.getAttribute('data-testid') : null");
  await page.getByTestId('live-state').and(page.locator('.live.on')).waitFor({ timeout: 10_000 });

  // --- Backups: the bar shows restic's real numbers (a determinate value, files and bytes), then the run and its generation.
  await page.getByTestId('nav-backups').click();
  await page.getByTestId('generations-local').waitFor();
  // Watches the bar from inside the page (a script string: the tests compile without DOM types).
  await page.evaluate(`(() => {
    const seen = { determinate: false, maxValue: 0 };
    window.__backupProgress = seen;
    new MutationObserver(() => {
      const bar = document.querySelector('[data-testid="backup-progress"] progress[value]');
      if (bar) { seen.determinate = true; seen.maxValue = Math.max(seen.maxValue, bar.value); }
    }).observe(document.body, { subtree: true, childList: true, attributes: true });
  })()`);
  await page.getByTestId('backup-now').click();
  await page.getByTestId('backup-progress').waitFor({ timeout: 15_000 });
  await page.locator('[data-testid="last-run"][data-status="ok"]').waitFor({ timeout: 120_000 });
  await page.getByTestId('backup-progress').waitFor({ state: 'detached' });
  const seen = String(await page.evaluate('JSON.stringify(window.__backupProgress)'));
  assert.equal(field(JSON.parse(seen), 'determinate'), true, `a real percentage was shown: ${seen}`);
  const runs = await api.get('/admin/backups');
  assert.equal(field(runs.body, 'data', 0, 'status'), 'ok', runs.text);
  const generation = field(runs.body, 'data', 0, 'generation');
  const firstRow = page.locator('[data-testid="generations-local"] tbody tr[data-generation]').first();
  await firstRow.waitFor();
  assert.equal(Number(await firstRow.getAttribute('data-generation')), generation, 'the new generation is listed first');
  await page.locator('[data-testid="maintenance-log"] .badge.ok').first().waitFor();
  assert.equal(field((await api.get('/admin/maintenance')).body, 'data', 0, 'last', 'ok'), true);
  // A second click while one runs would be 409; here none runs, so the button is back.
  assert.equal(await page.getByTestId('backup-now').isEnabled(), true);
  await gui.screenshot('backups-en');
  await page.getByTestId('language-switch').click();
  await page.locator('html[dir="rtl"]').waitFor();
  await gui.screenshot('backups-ar');
  await page.getByTestId('language-switch').click();

  // --- Drills: a daily drill, its progress, then PASS in the history with its checklist.
  await page.getByTestId('nav-drills').click();
  await page.getByTestId('drill-daily').waitFor();
  await page.getByTestId('drill-daily').click();
  // The drills' run table (the one run table of every screen): the newest row is this drill.
  const newest = page.locator('[data-testid="drill-history"] tbody tr').first();
  await newest.and(page.locator('[data-verdict="PASS"]')).waitFor({ timeout: 120_000 });
  const drills = await api.get('/admin/drills');
  assert.equal(field(drills.body, 'data', 0, 'verdict'), 'PASS', drills.text);
  assert.equal(field(drills.body, 'data', 0, 'kind'), 'daily');
  assert.equal(await newest.getAttribute('data-testid'), `drill-${String(field(drills.body, 'data', 0, 'id'))}`);
  // The drill just started opens by itself: every check is listed, all passed.
  const checks = newest.locator('.checklist > li');
  await checks.first().waitFor();
  const statuses = await attributes(checks, 'data-status');
  const apiChecks = field(drills.body, 'data', 0, 'checks');
  assert.ok(Array.isArray(apiChecks));
  assert.equal(statuses.length, apiChecks.length);
  assert.ok(
    statuses.every((s) => s === 'pass'),
    JSON.stringify(statuses),
  );
  await gui.screenshot('drills-en');
  await page.getByTestId('language-switch').click();
  await page.locator('html[dir="rtl"]').waitFor();
  await gui.screenshot('drills-ar');
  await page.getByTestId('language-switch').click();

  // --- Restore: local → newest generation → a folder; a non-empty one is refused before the click.
  await page.getByTestId('nav-restore').click();
  await page.getByTestId('restore-repo-local').check();
  await page.getByTestId('restore-next').click();
  await page.getByTestId('restore-generation-0').waitFor({ timeout: 60_000 });
  assert.equal(await page.getByTestId('restore-generation-0').isChecked(), true, 'the newest is preselected');
  // Each step puts the keyboard on its first field: the chosen generation, then the folder.
  await waitFor(async () => (await focusedTestId()) === 'restore-generation-0', 5000, 'the chosen generation to have focus');
  await page.getByTestId('restore-next').click();
  await waitFor(async () => (await focusedTestId()) === 'restore-target', 5000, 'the folder field to have focus');
  const full = tempDir('sanad-gui-full-');
  writeFileSync(join(full, 'mine.txt'), 'keep');
  await page.getByTestId('restore-target').fill(full);
  await page.locator('[data-testid="target-status"][data-state="refused"][data-refusal="not_empty"]').waitFor();
  assert.equal(await page.getByTestId('restore-start').isDisabled(), true, 'refused before the click');
  assert.deepEqual(readFileSync(join(full, 'mine.txt'), 'utf8'), 'keep');
  const target = join(tempDir('sanad-gui-restore-'), 'restored');
  await page.getByTestId('restore-target').fill(target);
  await page.locator('[data-testid="target-status"][data-state="ok"]').waitFor();
  // This test made the backup: it keeps the backup's clients, so its admin token works afterwards.
  await page.getByTestId('restore-keep-clients').click();
  await page.locator('[data-testid="restore-keep-clients"]:checked').waitFor();
  await gui.screenshot('restore-target-en');
  await page.getByTestId('restore-start').click();
  await page.getByTestId('restore-progress').waitFor();
  const result = page.getByTestId('restore-result');
  await result.waitFor({ timeout: 180_000 });
  assert.equal(await result.getAttribute('data-ok'), 'true');
  const listed = page.locator('[data-testid="restore-checklist"] > li');
  const names = await attributes(listed, 'data-check');
  const oks = await attributes(listed, 'data-ok');
  assert.ok(names.length > 10 && oks.every((ok) => ok === 'true'), JSON.stringify([names, oks]));
  const restoreId = (await result.getAttribute('data-restore-id')) ?? '';
  const job = await api.get(`/admin/restore/${restoreId}`);
  assert.equal(field(job.body, 'status'), 'ok', job.text);
  // The Restore screen's run table lists it, with its folder, from the one record of runs.
  const row = page.locator(`[data-testid="restore-runs"] tr[data-run-id="${restoreId}"]`);
  await row.locator('[data-status="ok"]').waitFor();
  assert.equal((await row.locator('bdi').textContent())?.trim(), realpathSync(target));
  assert.equal(field(job.body, 'target'), realpathSync(target));
  const reported = field(job.body, 'result', 'checks');
  assert.ok(Array.isArray(reported));
  assert.deepEqual(
    names,
    reported.map((c: unknown) => field(c, 'name')),
    'the page lists exactly the checks the restore reported',
  );
  const exposure: unknown = reported.find((c: unknown) => field(c, 'name') === 'exposure:reset');
  assert.match(str(exposure, 'detail'), /paired clients? kept, as you asked/, 'the box was sent as keep_clients');
  assert.ok(existsSync(join(target, 'sanad.db')), 'the restored folder holds the store');
  // A summary first, in words; the rows behind Details, closed until asked for.
  const summary = (await page.getByTestId('restore-summary').innerText()).replace(/[\u2068\u2069]/g, '');
  assert.ok(summary.includes(`, from “local”) is now in ${realpathSync(target)}.`), summary);
  assert.match(summary, /Verified: all \d+ checks passed/);
  assert.equal(await page.getByTestId('restore-details').getAttribute('open'), null, 'the rows start closed');
  assert.equal(await listed.first().isVisible(), false);
  await gui.screenshot('restore-en');
  await page.locator('[data-testid="restore-details"] > summary').click();
  await listed.first().waitFor();
  await gui.screenshot('restore-details-en');
  await page.getByTestId('language-switch').click();
  await page.locator('html[dir="rtl"]').waitFor();
  // In Arabic, the rows are Arabic too: no English sentence outside names, paths and commands.
  await waitFor(async () => !(await page.locator('[data-testid="restore-checklist"] [aria-busy]').count()), 10_000, 'the Arabic wordings');
  const english = latinRuns(await proseOf(page, '[data-testid="restore-result"]'), [/^(restic|SQLite|JSON)$/]);
  assert.deepEqual(english, [], 'no English in the Arabic restore result');
  await gui.screenshot('restore-details-ar');
  await page.getByTestId('language-switch').click();

  // --- Open the restored data: a confirmation, then the same address serves the restored folder, signed in.
  await page.getByTestId('restore-open').click();
  await page.getByTestId('open-confirm').waitFor();
  await page.getByTestId('open-confirm-button').click();
  await page.getByTestId('open-waiting').waitFor();
  // The old instance's page says "waiting" until the new one signs it in (a new page load): the
  // URL and the target's path below are the same before and after, so they prove nothing alone.
  await page.getByTestId('open-waiting').waitFor({ state: 'detached', timeout: 90_000 });
  await page.waitForURL((u) => u.pathname === '/' && u.hash === '#/restore', { timeout: 90_000 });
  await page.getByTestId('live-state').and(page.locator('.live.on')).waitFor({ timeout: 20_000 });
  await page.getByText(realpathSync(target)).first().waitFor();
  // The page's own session (its token in sessionStorage, its origin) asks the new instance.
  // Asked until it answers from the new instance: while the switch is under way the old one has
  // stopped (no connection), the new one has not seen this page sign in yet (401), or the page is
  // between its sign-in and its reload (no page to ask).
  const askStatus = `fetch('/admin/status', { headers: { 'x-sanad-session': sessionStorage.getItem('sanad.session') ?? '' } }).then(async (r) => JSON.stringify({ status: r.status, body: await r.json() }), (e) => JSON.stringify({ network: String(e) }))`;
  let lastAnswer: unknown = null;
  const status: unknown = await waitFor(
    async () => {
      const text = await page.evaluate(askStatus).catch((err: unknown) => JSON.stringify({ navigating: String(err) }));
      lastAnswer = JSON.parse(String(text));
      return field(lastAnswer, 'status') === 200 ? lastAnswer : undefined;
    },
    30_000,
    'the page to be signed in to the new instance',
  ).catch(() => lastAnswer);
  assert.equal(field(status, 'status'), 200, 'the page is signed in to the new instance');
  assert.equal(str(status, 'body', 'service', 'data_dir'), realpathSync(target));
  const viaApi = await waitFor(async () => {
    const res = await api.get('/admin/status');
    return res.status === 200 ? res.body : undefined;
  });
  assert.equal(field(viaApi, 'service', 'data_dir'), realpathSync(target));
  assert.equal(field(viaApi, 'service', 'address'), service.url, 'same address');
});
