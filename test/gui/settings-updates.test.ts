// Settings → Updates, as a person sets it in real Chromium against a real `sanad serve`: a typo in
// the address is refused under the field in the reader's language (nothing saved); a good address
// is saved and said; emptied, Sanad never looks. English and Arabic, axe-clean.
// Screenshots: settings-updates-en, settings-updates-ar.
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

test('Settings → Updates: a typo refused in words, an address saved, emptied to never look (en, ar)', async () => {
  const prepared = await prepareDataDir();
  service = await startServiceProcess(prepared.dataDir, prepared.adminToken);
  const s = service;
  gui = await openGui(s.loginUrl);
  const { page } = gui;
  const feed = async (): Promise<unknown> => field((await s.api.get('/admin/settings')).body, 'update_feed_url');

  await page.getByTestId('nav-settings').click();
  const form = page.getByTestId('settings-updates');
  await form.waitFor();
  assert.equal(await form.locator('p.muted').last().textContent(), 'Sanad does not look for updates.');
  await page.getByTestId('update-feed').fill('htps://updates.example.com/sanad/');
  await form.getByRole('button', { name: 'Save address' }).click();
  const error = page.locator('#update-feed-error');
  await error.waitFor({ timeout: 10_000 });
  assert.match((await error.textContent()) ?? '', /^Give an https:\/\/ address/);
  assert.equal(await feed(), null, 'nothing was saved');

  await page.getByTestId('update-feed').fill('https://updates.example.com/sanad/');
  await form.getByRole('button', { name: 'Save address' }).click();
  await waitFor(async () => ((await feed()) === 'https://updates.example.com/sanad/' ? true : undefined), 10_000, 'the address saved');
  await waitFor(async () => (/looks for updates at this address/.test((await form.textContent()) ?? '') ? true : undefined), 10_000, 'the address said');
  assert.equal(await error.count(), 0, 'the error is gone');
  assert.deepEqual(await axeViolations(page, 'main'), []);
  await form.scrollIntoViewIfNeeded();
  await gui.screenshot('settings-updates-en');

  await page.getByTestId('language-switch').click();
  await form.waitFor();
  await page.getByTestId('update-feed').fill('ftp://updates.example.com/');
  await form.getByRole('button', { name: 'حفظ العنوان' }).click();
  await error.waitFor({ timeout: 10_000 });
  assert.match((await error.textContent()) ?? '', /^اكتب عنوانًا يبدأ/);
  assert.deepEqual(latinRuns(await proseOf(page, '[data-testid="settings-updates"]')), [], 'Arabic but for isolated addresses');
  assert.deepEqual(await axeViolations(page, 'main'), []);
  await gui.screenshot('settings-updates-ar');

  await page.getByTestId('update-feed').fill('');
  await form.getByRole('button', { name: 'حفظ العنوان' }).click();
  await waitFor(async () => ((await feed()) === null ? true : undefined), 10_000, 'emptied: never look');
});
