// The secrets file on a server is a known, deliberate condition (issue 30): on Overview the person
// accepts its warning, the verdict stops saying "Needs attention" for it and says it was accepted,
// the alert stays listed marked Accepted, the command in it is code (no raw backticks), the choice
// survives a restart of the service, and Undo brings the warning back. In English and Arabic,
// axe-clean both ways. Real `sanad serve --secrets-file`, real Chromium.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { waitFor } from '../harness/api.js';
import { prepareDataDir, tempDir } from '../harness/data-dir.js';
import { startServiceProcess, type ServiceProcess } from '../harness/service-process.js';
import { axeViolations } from './axe.js';
import { openGui, type Gui } from './browser.js';

/** Waits until the verdict line's text passes `ok` (the page's CSP forbids evaluated strings). */
async function verdictSays(page: Page, ok: (text: string) => boolean): Promise<void> {
  await waitFor(async () => (ok(await page.getByTestId('overview-verdict').innerText()) ? true : undefined), 15_000, 'the verdict line');
}

let service: ServiceProcess | null = null;
let gui: Gui | null = null;
after(async () => {
  await gui?.close();
  await service?.kill();
});

test('Overview: accept the secrets-file warning, it says "accepted" and stays listed, survives a restart, Undo brings it back (en, ar)', async () => {
  const prepared = await prepareDataDir();
  // The file must exist, be the user's and mode 600, in a folder only the user can open.
  const folder = tempDir('sanad-secrets-');
  chmodSync(folder, 0o700);
  const file = join(folder, 'secrets.json');
  writeFileSync(file, '', { mode: 0o600 });
  const args = ['--secrets-file', file];
  service = await startServiceProcess(prepared.dataDir, prepared.adminToken, {}, args);
  gui = await openGui(service.loginUrl);
  const { page } = gui;
  const verdict = page.getByTestId('overview-verdict');
  const item = page.locator('[data-alert="secrets.in_file"]');
  await item.waitFor();
  await verdictSays(page, (t) => t.includes('warnings open: 1'));
  assert.doesNotMatch(await item.innerText(), /`/, 'no raw backticks');
  assert.equal(await item.locator('code').first().innerText(), 'sanad secrets move-to-keychain');
  assert.deepEqual(await axeViolations(page, 'main'), []);

  await item.getByRole('button', { name: 'Accept' }).click();
  await verdictSays(page, (t) => t.endsWith('(one warning accepted)'));
  assert.doesNotMatch(await verdict.innerText(), /warnings open/);
  await item.getByText('Accepted', { exact: true }).waitFor();
  assert.equal(await item.getByRole('button', { name: 'Accept' }).count(), 0);
  await gui.screenshot('overview-alert-accepted-en');
  assert.deepEqual(await axeViolations(page, 'main'), []);

  // A restart is a new start of the same live alert: what the person said is kept.
  await service.stop();
  service = await startServiceProcess(prepared.dataDir, prepared.adminToken, {}, args);
  await gui.close();
  gui = await openGui(service.loginUrl);
  const again = gui.page;
  await again.locator('[data-alert="secrets.in_file"]').getByText('Accepted', { exact: true }).waitFor();
  await verdictSays(again, (t) => t.endsWith('(one warning accepted)'));

  await again.getByTestId('language-switch').click();
  await verdictSays(again, (t) => t.includes('تحذير واحد مقبول'));
  const arItem = again.locator('[data-alert="secrets.in_file"]');
  await arItem.getByText('مقبول', { exact: true }).waitFor();
  await gui.screenshot('overview-alert-accepted-ar');
  assert.deepEqual(await axeViolations(again, 'main'), []);
  await arItem.getByRole('button', { name: 'تراجع' }).click();
  await verdictSays(again, (t) => t.includes('تحذيرات مفتوحة'));
  await arItem.getByRole('button', { name: 'قبول' }).waitFor();
  assert.doesNotMatch(await again.getByTestId('overview-verdict').innerText(), /مقبول/);
});
