// Small things a keyboard or screen-reader user meets first (issue 30): "Skip to content" moves
// focus to the content without leaving the screen (its #main target used to be read as a route);
// the language button's accessible name is its visible text, marked with that text's language;
// a drill's verdict badge is a badge, not the Overview's tall verdict line.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { prepareDataDir } from '../harness/data-dir.js';
import { startServiceProcess, type ServiceProcess } from '../harness/service-process.js';
import { openGui, type Gui } from './browser.js';

let service: ServiceProcess | null = null;
let gui: Gui | null = null;
after(async () => {
  await gui?.close();
  await service?.kill();
});

test('skip link keeps the screen and focuses the content; the language button says its text; verdict badges stay badges', async () => {
  const prepared = await prepareDataDir();
  service = await startServiceProcess(prepared.dataDir, prepared.adminToken);
  gui = await openGui(service.loginUrl);
  const { page } = gui;
  await page.goto(`${service.url}/#/models`);
  await page.getByRole('heading', { level: 1, name: 'Models' }).waitFor();
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate('document.activeElement?.className'), 'skip-link', 'the first Tab reaches the skip link');
  await page.keyboard.press('Enter');
  assert.equal(new URL(page.url()).hash, '#/models', 'still on Models');
  assert.equal(await page.evaluate('document.activeElement?.id'), 'main', 'focus is on the content');
  await page.getByRole('heading', { level: 1, name: 'Models' }).waitFor();

  const button = page.getByTestId('language-switch');
  assert.equal(await button.getAttribute('aria-label'), null);
  assert.equal(await button.getAttribute('lang'), 'ar');
  await page.getByRole('button', { name: 'العربية', exact: true }).waitFor();
  await button.click();
  await page.getByRole('button', { name: 'English', exact: true }).waitFor();
  assert.equal(await page.getByTestId('language-switch').getAttribute('lang'), 'en');
  await page.getByTestId('language-switch').click();

  // A badge of the Drills screen's class carries no Overview verdict-line height.
  await page.goto(`${service.url}/#/drills`);
  await page.getByRole('heading', { level: 1 }).waitFor();
  const height = await page.evaluate(`(() => {
    const b = document.createElement('span');
    b.className = 'badge verdict';
    b.textContent = 'PASS';
    document.getElementById('main').appendChild(b);
    const h = b.getBoundingClientRect().height;
    b.remove();
    return h;
  })()`);
  assert.ok(typeof height === 'number' && height < 30, `a verdict badge is ${String(height)} px tall`);
});
