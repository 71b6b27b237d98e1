// Small things a keyboard or screen-reader user meets first (issue 30): "Skip to content" moves
// focus to the content without leaving the screen (its #main target used to be read as a route);
// the language button's accessible name is its visible text, marked with that text's language;
// a drill's verdict badge is a badge, not the Overview's tall verdict line.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { waitFor } from '../harness/api.js';
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

test('changing screens focuses the new heading and names the tab; below 900 px the navigation folds behind Menu, with nothing wider than the window (800 and 390 px, en and ar)', async () => {
  // The first test's window, still signed in (a login link works once).
  if (!service || !gui) {
    const prepared = await prepareDataDir();
    service = await startServiceProcess(prepared.dataDir, prepared.adminToken);
    gui = await openGui(service.loginUrl);
  }
  const { page } = gui;
  await page.goto(`${service.url}/#/overview`);
  if ((await page.evaluate('document.documentElement.lang')) !== 'en') await page.getByTestId('language-switch').click();
  await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
  assert.equal(await page.title(), 'Overview · Sanad');
  await page.getByTestId('nav-backups').focus();
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { level: 1, name: 'Backups' }).waitFor();
  await waitFor(async () => ((await page.evaluate('document.activeElement?.tagName')) === 'H1' ? true : undefined), 5000, 'focus on the heading');
  assert.equal(await page.evaluate('document.activeElement?.textContent'), 'Backups');
  assert.equal(await page.title(), 'Backups · Sanad');
  assert.equal(await page.getByTestId('menu-button').isVisible(), false, 'no Menu button at 1280 px');

  for (const width of [800, 390]) {
    for (const lang of ['en', 'ar'] as const) {
      await page.setViewportSize({ width, height: 800 });
      await page.goto(`${service.url}/#/overview`);
      if ((await page.evaluate('document.documentElement.lang')) !== lang) await page.getByTestId('language-switch').click();
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      const menu = page.getByTestId('menu-button');
      assert.equal(await menu.isVisible(), true, `${width} px ${lang}: a Menu button`);
      assert.equal(await page.getByTestId('nav-backups').isVisible(), false, 'the navigation is folded');
      assert.equal(await menu.getAttribute('aria-expanded'), 'false');
      await menu.click();
      assert.equal(await menu.getAttribute('aria-expanded'), 'true');
      await page.getByTestId('nav-backups').click();
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      assert.equal(new URL(page.url()).hash, '#/backups');
      // The fold follows the route change by a render: wait for it (an h1 was already on the page).
      await waitFor(async () => ((await page.getByTestId('nav-backups').isVisible()) ? undefined : true), 5000, 'choosing a screen folds it again');
      const overflow = await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth');
      assert.equal(overflow, 0, `${width} px ${lang}: no sideways scrolling`);
      await gui.screenshot(`shell-${width}-${lang}`);
    }
  }
});

test('a login link opened a second time says it was used or has expired, not the generic "not signed in" (en, ar)', async () => {
  assert.ok(service && gui, 'the first test signed in with the link');
  const context = await gui.browser.newContext({ viewport: { width: 1024, height: 700 } });
  try {
    const page = await context.newPage();
    await page.goto(service.loginUrl);
    await page.getByTestId('login-link-refused').waitFor();
    assert.equal(await page.getByTestId('login-link-refused').innerText(), 'This login link was already used or has expired');
    assert.equal(new URL(page.url()).search, '', 'the code left the address bar');
    await page.getByTestId('language-switch').click();
    await page.getByText('رابط الدخول هذا استُخدم من قبل أو انتهت صلاحيته').waitFor();
  } finally {
    await context.close();
  }
});
