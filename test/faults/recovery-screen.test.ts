// The desktop app's recovery screen for a damaged store, in real headless Chromium (the screen the
// Electron window shows instead of failing to start): it names the damaged file and the last good
// backup, restores the local backup into a new folder with its checklist, offers "show the
// folder" and "open the restored data"; the damaged file is never written, and the restored
// folder serves the old response. English and Arabic (right to left), with screenshots.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { chromium, type Browser } from 'playwright-core';
import { startRecoveryServer, type RecoveryServer } from '../../src/appliance/recovery/recovery-server.js';
import { StoreDamagedError, inspectStore } from '../../src/store/store-check.js';
import { str } from '../harness/api.js';
import { newAdminToken, tempDir } from '../harness/data-dir.js';
import { startServiceProcess, type ServiceProcess } from '../harness/service-process.js';
import { chromiumPath, SCREENSHOT_DIR } from '../gui/browser.js';
import { damagedDataDirWithBackup, sha } from './damaged-kit.js';

let server: RecoveryServer | null = null;
let browser: Browser | null = null;
let restored: ServiceProcess | null = null;
after(async () => {
  await browser?.close();
  await server?.close();
  await restored?.kill();
});

test('the recovery screen restores a damaged store into a new folder and opens it (real Chromium, en and ar)', async () => {
  const d = await damagedDataDirWithBackup();
  const found = inspectStore(d.store);
  assert.equal(found.state, 'damaged');
  const shown: string[] = [];
  const opened: string[] = [];
  server = await startRecoveryServer({
    dataDir: d.dataDir,
    damage: new StoreDamagedError(d.store, found.state === 'damaged' ? found.reason : ''),
    showFolder: (p) => shown.push(p),
    openRestored: (dir) => opened.push(dir),
  });
  browser = await chromium.launch({
    executablePath: chromiumPath(),
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  mkdirSync(SCREENSHOT_DIR, { recursive: true });

  // Without the window's one-time code the page shows nothing of the data.
  const stranger = await (await browser.newContext()).newPage();
  await stranger.goto(`${server.url}/`);
  await stranger.getByText('Open this screen from the Sanad app.').waitFor();
  assert.ok(!(await stranger.content()).includes(d.store));
  assert.equal((await fetch(`${server.url}/recovery/page`)).status, 401, "the content needs the window's session");

  const ar = await (await browser.newContext({ locale: 'ar' })).newPage();
  await ar.goto(server.loginUrl());
  assert.equal(await ar.getAttribute('html', 'dir'), 'rtl');
  assert.match(await ar.locator('h1').innerText(), /سَنَد/);
  await ar.screenshot({ path: join(SCREENSHOT_DIR, 'recovery-ar.png'), fullPage: true });

  const page = await (await browser.newContext({ locale: 'en-US' })).newPage();
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  await page.goto(server.loginUrl());
  const damage = await page.getByTestId('damage').innerText();
  // Signed in by a header, as the GUI is: no cookie another port of 127.0.0.1 would be sent.
  assert.deepEqual(await page.context().cookies(), []);
  assert.equal(new URL(page.url()).search, '', 'the spent code left the address bar');
  assert.ok(damage.includes(d.store), damage);
  assert.ok(damage.includes(String(d.generation)), `the last good backup is named: ${damage}`);
  await page.screenshot({ path: join(SCREENSHOT_DIR, 'recovery-en.png'), fullPage: true });

  await Promise.all([
    page.waitForResponse((r) => r.url().endsWith('/recovery/show-folder')),
    page.getByRole('button', { name: 'Show the damaged folder' }).click(),
  ]);
  assert.deepEqual(shown, [d.store]);

  const target = join(tempDir('sanad-recovered-'), 'data');
  await page.locator('#target').fill(target);
  await page.getByRole('button', { name: 'Restore' }).click();
  await page.getByRole('button', { name: 'Open the restored data' }).waitFor({ timeout: 120_000 });
  const checklist = await page.locator('li').allInnerTexts();
  assert.ok(checklist.length > 5 && checklist.every((c) => c.startsWith('✓')), checklist.join('\n'));
  await page.screenshot({ path: join(SCREENSHOT_DIR, 'recovery-restored-en.png'), fullPage: true });
  await Promise.all([page.waitForResponse((r) => r.url().endsWith('/recovery/open')), page.getByRole('button', { name: 'Open the restored data' }).click()]);
  await page.getByText('Opening the restored data').waitFor();
  assert.deepEqual(opened, [target]);
  assert.deepEqual(errors, [], 'no console errors (CSP, missing files)');
  assert.equal(sha(d.store), d.damagedSha, 'the damaged file was only read');

  // The backup's clients were revoked by the restore (it was not told to keep them): a new token.
  restored = await startServiceProcess(target, newAdminToken(target));
  const back = await restored.api.get(`/v1/responses/${d.responseId}`);
  assert.equal(back.status, 200, back.text);
  assert.equal(str(back.body, 'output', 0, 'content', 0, 'text'), d.text);
});
