// "Get a model" in real Chromium against a real `sanad serve` and a local server speaking the
// hub's protocol: the plan is said before anything downloads, the download shows a real progress
// bar that moves, Cancel ends it with no file left, a second download ends verified and the model
// appears with its source; the backup choice says what it costs; the hub token is saved and never
// shown back; screenshots in English and Arabic; no axe violation in either.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Pull, PullList } from '../../src/contract/pulls.js';
import { ModelList } from '../../src/contract/tasks.js';
import { waitFor } from '../harness/api.js';
import { prepareDataDir } from '../harness/data-dir.js';
import { startServiceProcess, type ServiceProcess } from '../harness/service-process.js';
import { startTestHub, type TestHub } from '../fixtures/hub-server.js';
import { tinyRepo } from '../fixtures/hub-models.js';
import { axeViolations } from './axe.js';
import { openGui, type Gui } from './browser.js';

let service: ServiceProcess | null = null;
let gui: Gui | null = null;
let hub: TestHub | null = null;
after(async () => {
  await gui?.close();
  await service?.kill();
  await hub?.close();
});

test('Get a model: plan, a progress bar that moves, cancel, a verified download with its source (en and ar)', async () => {
  hub = await startTestHub([tinyRepo()], { rate: 50_000 });
  const { dataDir, adminToken } = await prepareDataDir();
  service = await startServiceProcess(dataDir, adminToken, { HF_ENDPOINT: hub.endpoint });
  const api = service.api;
  gui = await openGui(service.loginUrl);
  const { page } = gui;
  await page.goto(`${service.url}/#/models`);
  await page.getByTestId('get-model').waitFor();
  assert.equal((await page.getByTestId('curated-model').count()) >= 3, true, 'a first choice is offered with no network look-up');

  await page.getByTestId('pull-uri').fill('hf:sanad-test/tiny-GGUF:Q4_K_M');
  await page.getByTestId('pull-check').click();
  const plan = page.getByTestId('pull-plan');
  await plan.waitFor();
  const said = (await plan.textContent()) ?? '';
  assert.match(said, /tiny\.Q4_K_M\.gguf is [\d.]+ MB; .* free on the disk it goes to\./);
  assert.match(said, /It needs about .* of memory with a 2048-token context; this computer has .*, so it fits\./);
  assert.match(said, /checked against the fingerprint the hub publishes/);
  await page.getByTestId('pull-start').click();

  // The bar is a real <progress> whose value grows.
  const bar = page.locator('[data-testid=pull-running] progress');
  await bar.waitFor({ timeout: 15_000 });
  const valueOf = async (): Promise<number> => Number(await bar.getAttribute('value'));
  await waitFor(async () => (await valueOf()) > 0, 15_000, 'the bar moves');
  const first = await valueOf();
  await waitFor(async () => (await valueOf()) > first, 15_000, 'the bar moves on');
  await gui.screenshot('models-pull-en');
  const enViolations = await axeViolations(page, 'main');
  assert.deepEqual(enViolations, [], JSON.stringify(enViolations, null, 2));

  // Arabic, mid-download.
  await page.getByTestId('language-switch').click();
  await page.locator('[data-testid=pull-running]').waitFor();
  assert.equal(await page.evaluate('document.documentElement.dir'), 'rtl');
  assert.match((await page.getByTestId('get-model').textContent()) ?? '', /احصل على نموذج/);
  await gui.screenshot('models-pull-ar');
  const arViolations = await axeViolations(page, 'main');
  assert.deepEqual(arViolations, [], JSON.stringify(arViolations, null, 2));
  await page.getByTestId('language-switch').click();

  await page.getByTestId('pull-cancel').click();
  await page.getByTestId('pull-cancelled').waitFor({ timeout: 15_000 });
  const pulls = PullList.parse((await api.get('/admin/models/pulls')).body).data;
  assert.equal(pulls[0]?.status, 'cancelled');
  assert.deepEqual(readdirSync(join(dataDir, 'models', '.pulls')), [], 'nothing of it is left');
  assert.equal(existsSync(join(dataDir, 'models', 'tiny.Q4_K_M.gguf')), false);

  // Faster now: a whole download, verified, registered, shown with its source.
  hub.faults.rate = 2_000_000;
  await page.getByTestId('pull-uri').fill('hf:sanad-test/tiny-GGUF:Q2_K');
  await page.getByTestId('pull-check').click();
  await page.getByTestId('pull-start').click();
  await page.getByTestId('pull-done').waitFor({ timeout: 30_000 });
  await page.getByTestId('model-row-tiny.Q2_K').waitFor({ timeout: 15_000 });
  assert.match((await page.getByTestId('model-row-tiny.Q2_K').textContent()) ?? '', /From hf:sanad-test\/tiny-GGUF\/tiny\.Q2_K\.gguf/);
  const done = Pull.parse(PullList.parse((await api.get('/admin/models/pulls')).body).data[0]);
  assert.equal(done.status, 'done');

  // Its settings: the backup choice says what it costs, and is stored.
  await page.getByTestId('settings-model').selectOption('tiny.Q2_K');
  const form = page.getByTestId('model-settings-tiny.Q2_K');
  assert.match((await form.textContent()) ?? '', /saves [\d.]+ MB per repository; a restore downloads it again/);
  await form.getByTestId('set-context').fill('1024');
  await form.getByTestId('backup-source').check();
  await form.getByTestId('settings-save').click();
  await form.getByText('Saved; the next answer uses them.').waitFor();
  const model = ModelList.parse((await api.get('/v1/models')).body).data.find((m) => m.id === 'tiny.Q2_K');
  assert.equal(model?.backup, 'source');
  assert.equal(model?.settings?.context_size, 1024);
  await gui.screenshot('models-settings-en');

  // The hub token: saved to the keychain through the service, never shown back.
  const secret = 'hf_guitoken_0123456789';
  await page.getByTestId('hub-token-input').fill(secret);
  await page.getByTestId('hub-token-save').click();
  await page.getByText('A token is saved in the keychain.', { exact: false }).waitFor();
  assert.deepEqual((await api.get('/admin/hub-token')).body, { saved: true });
  assert.equal(await page.getByTestId('hub-token-input').inputValue(), '', 'the field is emptied');
  assert.ok(!(await page.content()).includes(secret), 'the token is nowhere in the page');
});
