// The GUI shell in real Chromium against a real `sanad serve`: the login URL signs in (the session
// is an HttpOnly cookie), the live event stream connects, every screen opens, the page obeys its
// CSP (no violations), and Arabic turns the whole page right-to-left.
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

const SCREENS = ['overview', 'tasks', 'models', 'clients', 'backups', 'offsite', 'drills', 'restore', 'settings'];

test('sign in by the login URL; every screen opens; Arabic is right-to-left', async () => {
  const prepared = await prepareDataDir();
  service = await startServiceProcess(prepared.dataDir, prepared.adminToken);
  assert.match(service.loginUrl, /\/login\?code=/);
  gui = await openGui(service.loginUrl);
  const { page } = gui;
  const violations: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
  });
  const cookies = await gui.context.cookies();
  const session = cookies.find((c) => c.name === 'sanad_session');
  assert.ok(session?.httpOnly, 'the session is an HttpOnly cookie');
  await page.getByTestId('live-state').and(page.locator('.live.on')).waitFor({ timeout: 10_000 });

  for (const lang of ['en', 'ar']) {
    if (lang === 'ar') await page.getByTestId('language-switch').click();
    assert.equal(await page.locator('html').getAttribute('dir'), lang === 'ar' ? 'rtl' : 'ltr');
    assert.equal(await page.locator('html').getAttribute('lang'), lang);
    for (const screen of SCREENS) {
      await page.getByTestId(`nav-${screen}`).click();
      await page.waitForURL((u) => u.hash === `#/${screen}`);
      // The hash changes a moment before React marks the link: wait for the mark, then read it.
      await page.getByTestId(`nav-${screen}`).and(page.locator('[aria-current="page"]')).waitFor({ timeout: 5000 }).catch(() => undefined);
      assert.equal(await page.getByTestId(`nav-${screen}`).getAttribute('aria-current'), 'page');
    }
  }
  // In Arabic the navigation sits on the right: its box starts right of the content's.
  const nav = await page.locator('nav.sidenav').boundingBox();
  const main = await page.locator('main').boundingBox();
  assert.ok(nav && main && nav.x > main.x, 'rtl mirrors the layout');
  // The choice survives a reload.
  await page.reload();
  assert.equal(await page.locator('html').getAttribute('dir'), 'rtl');
  assert.deepEqual(violations, [], 'no CSP violations');
});

test('without the login link the GUI is not signed in, and a used link does not work twice', async () => {
  const prepared = await prepareDataDir();
  const s = await startServiceProcess(prepared.dataDir, prepared.adminToken);
  try {
    const first = await fetch(s.loginUrl, { redirect: 'manual' });
    assert.equal(first.status, 303);
    const again = await fetch(s.loginUrl, { redirect: 'manual' });
    assert.equal(again.status, 403);
    const page = await fetch(`${s.url}/`);
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-security-policy') ?? '', /default-src 'self'/);
    assert.equal((await fetch(`${s.url}/admin/status`)).status, 401);
    assert.equal((await fetch(`${s.url}/assets/..%2f..%2fpackage.json`)).status, 404);
  } finally {
    await s.kill();
  }
});
