// The GUI shell in real Chromium against a real `sanad serve`: the login URL signs in (the session
// is a token in sessionStorage sent as a header, never a cookie), the live event stream connects,
// every screen opens, the page obeys its CSP (no violations), and Arabic turns the whole page
// right-to-left. Another local server the same browser visits receives nothing that opens Sanad.
import { test, after } from 'node:test';
import { createServer } from 'node:http';
import { waitFor } from '../harness/api.js';
import assert from 'node:assert/strict';
import { prepareDataDir } from '../harness/data-dir.js';
import { sessionHeader, signInWithLink } from '../harness/gui-session.js';
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
  assert.deepEqual(await gui.context.cookies(), [], 'no cookie: the browser has nothing to hand to another port');
  assert.equal(page.url(), `${service.url}/`, 'the code left the address bar');
  await page.getByTestId('live-state').and(page.locator('.live.on')).waitFor({ timeout: 10_000 });

  for (const lang of ['en', 'ar']) {
    if (lang === 'ar') await page.getByTestId('language-switch').click();
    assert.equal(await page.locator('html').getAttribute('dir'), lang === 'ar' ? 'rtl' : 'ltr');
    assert.equal(await page.locator('html').getAttribute('lang'), lang);
    for (const screen of SCREENS) {
      await page.getByTestId(`nav-${screen}`).click();
      await page.waitForURL((u) => u.hash === `#/${screen}`);
      // The hash changes a moment before React marks the link: wait for the mark, then read it.
      await page
        .getByTestId(`nav-${screen}`)
        .and(page.locator('[aria-current="page"]'))
        .waitFor({ timeout: 5000 })
        .catch(() => undefined);
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
    // The link opens the GUI page; only the page's POST /login spends the code.
    const opened = await fetch(s.loginUrl);
    assert.equal(opened.status, 200);
    assert.match(opened.headers.get('content-type') ?? '', /text\/html/);
    const first = await signInWithLink(s.loginUrl);
    assert.equal(first.status, 200);
    assert.ok(first.token);
    assert.equal((await fetch(`${s.url}/admin/status`, { headers: sessionHeader(first.token) })).status, 200);
    assert.equal((await signInWithLink(s.loginUrl)).status, 403, 'a used link does not work twice');
    const wrong = await fetch(`${s.url}/admin/status`, { headers: sessionHeader('not-a-session') });
    assert.equal(wrong.status, 401);
    assert.match(await wrong.text(), /session_expired/);
    assert.equal((await fetch(`${s.url}/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).status, 400);
    // Sign-out ends it.
    assert.equal((await fetch(`${s.url}/admin/logout`, { method: 'POST', headers: sessionHeader(first.token) })).status, 204);
    assert.equal((await fetch(`${s.url}/admin/status`, { headers: sessionHeader(first.token) })).status, 401);
    const page = await fetch(`${s.url}/`);
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-security-policy') ?? '', /default-src 'self'/);
    assert.equal((await fetch(`${s.url}/admin/status`)).status, 401);
    assert.equal((await fetch(`${s.url}/assets/..%2f..%2fpackage.json`)).status, 404);
  } finally {
    await s.kill();
  }
});

test('signed in in Chromium, the browser visits another 127.0.0.1 port: nothing it sends there opens Sanad; Sign out ends the session', async () => {
  const prepared = await prepareDataDir();
  const s = await startServiceProcess(prepared.dataDir, prepared.adminToken);
  // Another local program: a web server on another port of 127.0.0.1 that keeps every request's headers.
  const seen: Array<Record<string, string | string[] | undefined>> = [];
  const other = createServer((req, res) => {
    seen.push({ ...req.headers });
    res.setHeader('content-type', 'text/html');
    res.end('<!doctype html><title>dev server</title><img src="/pixel.png"><script>fetch("/api", { credentials: "include" })</script>');
  });
  await new Promise<void>((r) => other.listen(0, '127.0.0.1', () => r()));
  const address = other.address();
  const otherUrl = `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}/`;
  const g = await openGui(s.loginUrl);
  try {
    await g.page.getByTestId('live-state').and(g.page.locator('.live.on')).waitFor({ timeout: 10_000 });
    const visit = await g.context.newPage();
    await visit.goto(otherUrl);
    await waitFor(() => seen.length >= 3, 10_000, 'the page, its image and its fetch');
    await visit.close();
    // Every header the other server got, replayed against Sanad (its Host rewritten to Sanad's, as
    // a program would), opens nothing: there is no credential among them.
    const port = new URL(s.url).port;
    for (const headers of seen) {
      const replay: Record<string, string> = {};
      for (const [k, v] of Object.entries(headers)) if (typeof v === 'string' && k !== 'host' && k !== 'connection') replay[k] = v;
      for (const path of ['/admin/status', '/admin/recovery-kit']) {
        const res = await fetch(`http://127.0.0.1:${port}${path}`, { headers: replay });
        assert.equal(res.status, 401, `${path} with ${JSON.stringify(Object.keys(replay))}`);
      }
    }
    assert.ok(
      seen.every((h) => h.cookie === undefined),
      'no cookie went to the other port',
    );
    // The GUI still works, and its own sign-out ends its session for good.
    const token = await g.page.evaluate('sessionStorage.getItem("sanad.session")');
    assert.ok(typeof token === 'string' && token.length > 20);
    assert.equal((await fetch(`${s.url}/admin/status`, { headers: sessionHeader(token) })).status, 200);
    await g.page.getByTestId('sign-out').click();
    await g.page.getByText('This window is not signed in').first().waitFor({ timeout: 10_000 });
    assert.equal((await fetch(`${s.url}/admin/status`, { headers: sessionHeader(token) })).status, 401);
  } finally {
    other.close();
    await g.close();
    await s.kill();
  }
});
