// Settings → Browser apps, as a person sets it in real Chromium against a real `sanad serve`: a
// line that is not an origin is refused under the field in the reader's language (nothing saved);
// good origins are saved, and a page of that origin may then call /v1 (its preflight answered)
// while another is refused. English and Arabic, 1280 and 390 px wide, axe-clean.
// Screenshots: settings-origins-en, settings-origins-ar, settings-origins-ar-390.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { field, waitFor } from '../harness/api.js';
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

test('Settings → Browser apps: a bad line refused in words, origins saved and honoured at the door (en, ar)', async () => {
  const prepared = await prepareDataDir();
  service = await startServiceProcess(prepared.dataDir, prepared.adminToken);
  const s = service;
  gui = await openGui(s.loginUrl);
  const { page } = gui;
  const origins = async (): Promise<unknown> => field((await s.api.get('/admin/settings')).body, 'allowed_origins');
  const preflight = (origin: string): Promise<Response> =>
    fetch(`${s.url}/v1/models`, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'GET' } });

  await page.getByTestId('nav-settings').click();
  const form = page.getByTestId('settings-origins');
  await form.waitFor();
  assert.equal(await page.getByTestId('origins-said').textContent(), 'No browser app may use the models.');
  await page.getByTestId('allowed-origins').fill('http://localhost:3000/app');
  await form.getByRole('button', { name: 'Save origins' }).click();
  const error = page.locator('#origins-error');
  await error.waitFor({ timeout: 10_000 });
  assert.match((await error.textContent()) ?? '', /^Each line must be an origin/);
  assert.deepEqual(await origins(), [], 'nothing was saved');

  await page.getByTestId('allowed-origins').fill('http://localhost:3000\nhttps://notes.example.com/');
  await form.getByRole('button', { name: 'Save origins' }).click();
  await waitFor(async () => (JSON.stringify(await origins()) === '["http://localhost:3000","https://notes.example.com"]' ? true : undefined), 10_000, 'saved');
  await waitFor(
    async () => (/^Allowed: http:\/\/localhost:3000, https:\/\/notes/.test((await page.getByTestId('origins-said').textContent()) ?? '') ? true : undefined),
    10_000,
    'the origins said',
  );
  assert.equal(await error.count(), 0, 'the error is gone');
  // The door follows what was saved: the allowed origin's preflight is answered, another's is not.
  assert.equal((await preflight('http://localhost:3000')).headers.get('access-control-allow-origin'), 'http://localhost:3000');
  assert.equal((await preflight('http://evil.example')).headers.get('access-control-allow-origin'), null);
  assert.deepEqual(await axeViolations(page, 'main'), []);
  await form.scrollIntoViewIfNeeded();
  await gui.screenshot('settings-origins-en');

  await page.getByTestId('language-switch').click();
  await form.waitFor();
  await page.getByTestId('allowed-origins').fill('localhost:3000');
  await form.getByRole('button', { name: 'حفظ الأصول' }).click();
  await error.waitFor({ timeout: 10_000 });
  assert.match((await error.textContent()) ?? '', /^يجب أن يكون كل سطر أصلًا/);
  assert.deepEqual(latinRuns(await proseOf(page, '[data-testid="settings-origins"]')), [], 'Arabic but for isolated origins');
  assert.deepEqual(await axeViolations(page, 'main'), []);
  await gui.screenshot('settings-origins-ar');
  await page.setViewportSize({ width: 390, height: 844 });
  await form.scrollIntoViewIfNeeded();
  await gui.screenshot('settings-origins-ar-390');
});
