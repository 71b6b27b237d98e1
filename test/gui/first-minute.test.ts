// The GUI's first minute on a new data dir, in real Chromium against a real `sanad serve`: no
// console error on load (the favicon is served), the first-run checklist shows its four steps,
// each turns done as it is really done (kit confirmed, an offsite target on rclone serve restic
// added and tested, a backup, a drill), and then the list is gone for good. Settings → Diagnostics
// lists the doctor's checks. Screenshots in English and Arabic.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { extract } from 'tar';
import { after, test } from 'node:test';
import { field, waitFor, type Api, noOpenRun } from '../harness/api.js';
import { prepareDataDir, tempDir } from '../harness/data-dir.js';
import { startServiceProcess, type ServiceProcess } from '../harness/service-process.js';
import { freePort, RestServer } from '../backup/run/rest-server.js';
import { openGui, type Gui } from './browser.js';

let service: ServiceProcess | null = null;
let gui: Gui | null = null;
let rest: RestServer | null = null;
after(async () => {
  await gui?.close();
  await service?.kill();
  await rest?.stop();
});

const idle = (api: Api): Promise<boolean> => waitFor(async () => await noOpenRun(api, 'backup'), 120_000, 'the backup to end');

test('first minute: no console error, the checklist walks to done and stays gone; diagnostics listed', async () => {
  const prepared = await prepareDataDir();
  service = await startServiceProcess(prepared.dataDir, prepared.adminToken);
  const { api } = service;
  gui = await openGui(service.loginUrl);
  const { page } = gui;
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  await page.reload();
  await page.getByTestId('first-run').waitFor();
  assert.deepEqual(errors, [], 'no console error on load');
  // Asked directly: after the first load Chromium keeps the icon in its cache (max-age), so a reload
  // may show no request for it at all.
  const iconHref = await page.locator('link[rel="icon"]').getAttribute('href');
  assert.ok(iconHref);
  const icon = await page.request.get(new URL(iconHref, page.url()).href);
  assert.equal(icon.status(), 200, 'the favicon the page names is served');
  assert.equal(icon.headers()['content-type'], 'image/png');

  const stepsDone = async (): Promise<Record<string, string | null>> => {
    const out: Record<string, string | null> = {};
    for (const step of ['kit', 'offsite', 'backup', 'drill'])
      out[step] = await page.locator(`[data-testid="first-run"] li[data-step="${step}"]`).getAttribute('data-done');
    return out;
  };
  assert.deepEqual(await stepsDone(), { kit: 'no', offsite: 'no', backup: 'no', drill: 'no' });
  await gui.screenshot('first-run-en');

  assert.equal((await api.post('/admin/recovery-kit/confirm')).status, 200);
  rest = new RestServer(tempDir(), await freePort());
  await rest.start();
  assert.equal((await api.post('/admin/repositories', { name: 'nas', type: 'rest', location: rest.url })).status, 201);
  const tested = await api.post('/admin/repositories/nas/test');
  assert.equal(field(tested.body, 'ok'), true, tested.text);
  await page.reload();
  await page.getByTestId('first-run').waitFor();
  assert.deepEqual(await stepsDone(), { kit: 'yes', offsite: 'yes', backup: 'no', drill: 'no' });

  await idle(api);
  assert.equal((await api.post('/admin/backups')).status, 202);
  await idle(api);
  assert.equal((await api.post('/admin/drills', {})).status, 202);
  await waitFor(async () => await noOpenRun(api, 'drill'), 120_000, 'the drill to end');
  await page.reload();
  await page.getByTestId('overview-alerts').or(page.getByText('No open alerts.')).first().waitFor();
  assert.equal(await page.getByTestId('first-run').count(), 0, 'the checklist is gone once every step is done');
  assert.equal(field((await api.get('/admin/first-run')).body, 'done'), true);
  // Never again, even when an offsite target is removed later.
  assert.equal((await api.delete('/admin/repositories/nas')).status, 200);
  await page.reload();
  await page.getByTestId('live-state').waitFor();
  assert.equal(await page.getByTestId('first-run').count(), 0);

  await page.getByTestId('nav-settings').click();
  await page.getByTestId('diagnostics').waitFor({ timeout: 60_000 });
  const items = page.locator('[data-testid="diagnostics"] li');
  const names: Array<string | null> = [];
  for (let i = 0, n = await items.count(); i < n; i++) names.push(await items.nth(i).getAttribute('data-check'));
  for (const name of ['node', 'restic', 'keychain', 'store', 'disk', 'port', 'repo:local', 'backup', 'drill', 'recovery_kit'])
    assert.ok(names.includes(name), `${name} in ${names.join(', ')}`);
  await gui.screenshot('diagnostics-en');

  // Save diagnostics: a download of the doctor's bundle, with the checks the screen listed and no token.
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('diagnostics-save').click()]);
  assert.match(download.suggestedFilename(), /^sanad-diagnostics-[\d-]+\.tar\.gz$/);
  const saved = join(tempDir('sanad-download-'), download.suggestedFilename());
  await download.saveAs(saved);
  const unpacked = tempDir('sanad-unpacked-');
  await extract({ file: saved, cwd: unpacked });
  assert.deepEqual(readdirSync(unpacked).sort(), ['README.txt', 'doctor.json', 'settings.json', 'versions.json']);
  const inside = readdirSync(unpacked)
    .map((f) => readFileSync(join(unpacked, f), 'utf8'))
    .join('\n');
  assert.match(inside, /"name": "recovery_kit"/, 'the same checks');
  assert.ok(!inside.includes(prepared.adminToken), 'no token in it');

  await page.getByTestId('language-switch').click();
  await page.getByTestId('diagnostics').waitFor();
  await gui.screenshot('diagnostics-ar');
  assert.deepEqual(errors, [], 'no console error on the way');
});
