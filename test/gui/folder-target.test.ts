// An external disk as a target, in real Chromium against a real `sanad serve`, on a real ext4
// loop device: added on the Offsite screen as "External disk or folder", its card says which disk
// and that it is connected; unplugged, the card says it is not, and Test says so in the reader's
// language (Arabic here) without starting restic on the empty mount point. axe finds nothing.
// A backup while it is away is partial; plugged back in, "Copy to offsite now" sends that backup to it.
// Screenshots: offsite-folder-en, offsite-folder-ar, backups-copy-offsite-ar.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { field } from '../harness/api.js';
import { prepareDataDir } from '../harness/data-dir.js';
import { makeLoopDisk } from '../harness/loop-disk.js';
import { startServiceProcess, type ServiceProcess } from '../harness/service-process.js';
import { axeViolations } from './axe.js';
import { openGui, type Gui } from './browser.js';
import { latinRuns, proseOf } from './latin-runs.js';

let service: ServiceProcess | null = null;
let gui: Gui | null = null;
const disk = makeLoopDisk(32);

before(async () => {
  if (typeof disk === 'string') return;
  const prepared = await prepareDataDir();
  service = await startServiceProcess(prepared.dataDir, prepared.adminToken);
  gui = await openGui(service.loginUrl);
});
after(async () => {
  await gui?.close();
  await service?.kill();
  if (typeof disk !== 'string') disk.remove();
});

test(
  'Offsite: an external disk target says which disk, whether it is connected, and refuses while it is not (en, ar)',
  { skip: typeof disk === 'string' ? disk : false },
  async () => {
    assert.ok(service && gui && typeof disk !== 'string');
    const { page } = gui;
    const folder = join(disk.mountPoint, 'sanad');
    await page.getByTestId('nav-offsite').click();
    await page.getByTestId('target-type').selectOption('folder');
    await page.getByTestId('target-name').fill('usb');
    await page.getByTestId('target-location').fill(folder);
    await page.getByTestId('target-submit').click();
    const card = page.getByTestId('target-card-usb');
    await card.waitFor({ timeout: 10_000 });
    assert.equal(await card.getByTestId('target-disk').textContent(), `Connected at \u2068${disk.mountPoint}\u2069`);
    assert.equal(field((await service.api.get('/admin/repositories')).body, 'data', 1, 'type'), 'folder');

    await page.getByTestId('target-test-usb').click();
    const result = page.getByTestId('target-test-result-usb').locator('[data-result]');
    await result.waitFor({ timeout: 60_000 });
    assert.equal(await result.getAttribute('data-result'), 'ok', (await result.textContent()) ?? '');
    await gui.screenshot('offsite-folder-en');

    disk.disconnect();
    await page.reload();
    await page.getByTestId('language-switch').click();
    await page.getByTestId('target-card-usb').waitFor();
    assert.match((await card.getByTestId('target-disk').textContent()) ?? '', /^غير موصول \(يُنتظر على \u2068.+mnt\u2069\)$/);
    await page.getByTestId('target-test-usb').click();
    const refused = page.getByTestId('target-test-result-usb').locator('[data-result="failed"]');
    await refused.waitFor({ timeout: 30_000 });
    const said = (await refused.textContent()) ?? '';
    assert.match(said, /^قرص «usb» غير موصول/);
    assert.deepEqual(latinRuns(await proseOf(page, '[data-testid="target-test-result-usb"]')), [], 'the refusal is in Arabic but for the names');
    assert.deepEqual(readdirSync(disk.mountPoint), [], 'the test wrote nothing under the empty mount point');
    assert.deepEqual(await axeViolations(page, 'main'), []);
    await gui.screenshot('offsite-folder-ar');

    // A backup while the disk is away reaches only this computer; plugged in again, "Copy to offsite
    // now" sends that same backup there, said in Arabic, without making a new one.
    await page.getByTestId('nav-backups').click();
    await page.getByTestId('backup-now').click();
    await page.locator('[data-testid="last-run"][data-status="partial"]').waitFor({ timeout: 120_000 });
    const copy = page.getByTestId('copy-offsite');
    await copy.waitFor();
    assert.match((await copy.textContent()) ?? '', /لم تصل آخر نسخة احتياطية إلى وجهة خارجية واحدة/);
    disk.connect();
    await page.getByTestId('copy-offsite-now').click();
    const copied = page.getByTestId('copy-offsite-result').locator('[data-status="copied"]');
    await copied.waitFor({ timeout: 120_000 });
    assert.match((await copied.textContent()) ?? '', /^نُسخت أحدث نسخة احتياطية \(الجيل \d+\) إلى «usb»\.$/);
    assert.deepEqual(latinRuns(await proseOf(page, '[data-testid="copy-offsite"]')), [], 'the copy is said in Arabic but for the names');
    // The disk's own generation list (restic asked again) now holds the copied backup.
    await page.getByTestId('generations-usb').locator('tbody tr [data-testid^="inside-usb-"]').waitFor({ timeout: 30_000 });
    const runs = field((await service.api.get('/admin/backups')).body, 'data');
    assert.ok(Array.isArray(runs) && runs.length === 1, 'no second generation was made');
    assert.deepEqual(await axeViolations(page, 'main'), []);
    await gui.screenshot('backups-copy-offsite-ar');
  },
);
