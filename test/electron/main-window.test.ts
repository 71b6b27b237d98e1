// The desktop app's main process itself (dist/electron/main.js, compiled from electron/main.ts),
// run under Node with the stand-in Electron (test/electron/stand-in), a real core on a temp data
// dir with the real keyring, and its window as a real headless Chromium page running the real
// preload: one instance per user, the hardened window on the core's loopback origin, the sign-in
// through the preload's one-time code, navigation and new windows refused, close to the tray.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BRIDGE_GLOBAL } from '../../src/contract/desktop-bridge.js';
import { prepareDataDir, tempDir } from '../harness/data-dir.js';
import { waitFor } from '../harness/api.js';
import { signInWithLink } from '../harness/gui-session.js';
import { coreOrigin, launchApp, quitAndWait } from './stand-in/launch.js';

test('stand-in Electron: one hardened window on the core, signed in through the preload, on the Overview', async () => {
  const { dataDir } = await prepareDataDir();
  const home = tempDir('sanad-home-');
  const app = launchApp({ home, dataDir });
  const origin = await coreOrigin(app);
  assert.match(origin, /^http:\/\/127\.0\.0\.1:\d+$/);
  await app.send({ op: 'page-wait', selector: '[data-testid=live-state]', timeoutMs: 30_000 });
  await waitFor(async () => /Overview/.test(String(await app.pageEval('document.querySelector("main")?.innerText ?? ""'))), 15_000, 'the Overview');
  const s = await app.state();

  assert.deepEqual([s.app.name, s.app.sandbox, s.app.hasLock], ['Sanad', true, true]);
  assert.equal(s.app.userData, join(home, '.config', 'Sanad'));
  assert.equal(s.windows.length, 1);
  const [win] = s.windows;
  assert.ok(win);
  const prefs = win.webPreferences;
  assert.deepEqual([prefs.contextIsolation, prefs.sandbox, prefs.nodeIntegration, prefs.webSecurity], [true, true, false, true]);
  assert.ok(typeof prefs.preload === 'string' && prefs.preload.endsWith('dist/electron/preload.cjs') && existsSync(prefs.preload));
  assert.ok(win.icon !== null && existsSync(win.icon), 'the window icon exists');
  // No login link: the window was given the bare GUI address, the code came through the preload.
  assert.deepEqual(win.loaded, [`${origin}/`]);
  assert.equal(win.url, `${origin}/`);
  assert.equal(win.visible, true);
  assert.deepEqual(s.ipcChannels, ['sanad:pick-folder', 'sanad:pick-model-file', 'sanad:session']);
  assert.ok(s.session.headersHandler && s.session.permissionRequestHandler && s.session.permissionCheckHandler);
  assert.ok(s.session.headersRewritten >= 1, 'the shell set its CSP on the document');

  // The page has the bridge and nothing else of the desktop: no require, no process, no IPC door.
  const page = await app.pageEval(`({
    bridge: Object.keys(window.${BRIDGE_GLOBAL} ?? {}).sort(),
    require: typeof require, process: typeof process,
    doors: Object.getOwnPropertyNames(window).filter((n) => n.startsWith('__standIn')),
  })`);
  assert.deepEqual(page, { bridge: ['pickFolder', 'pickModelFile', 'platform', 'session'], require: 'undefined', process: 'undefined', doors: [] });
  // The CSP is in force: the page cannot reach another port on the machine.
  const reached = await app.pageEval(`fetch('http://127.0.0.1:9/').then(() => 'reached', (e) => 'blocked')`);
  assert.equal(reached, 'blocked');
  // A second session from the bridge is a fresh one-time code, and a spent one opens nothing.
  const code = await app.pageEval(`window.${BRIDGE_GLOBAL}.session().then((s) => s.loginCode)`);
  assert.ok(typeof code === 'string' && code.length >= 16);
  assert.equal((await signInWithLink(`${origin}/login?code=${encodeURIComponent(code)}`)).status, 200);
  assert.equal((await signInWithLink(`${origin}/login?code=${encodeURIComponent(code)}`)).status, 403);
  // The window's session is a header from sessionStorage: no cookie another port could be handed.
  assert.deepEqual(await app.send({ op: 'cookies' }), []);
  assert.equal(await app.pageEval('typeof sessionStorage.getItem("sanad.session")'), 'string');

  await quitAndWait(app);
});

test('stand-in Electron: navigation to another origin and window.open are refused; links go to the browser', async () => {
  const { dataDir } = await prepareDataDir();
  const app = launchApp({ dataDir });
  const origin = await coreOrigin(app);
  await app.send({ op: 'page-wait', selector: '[data-testid=live-state]', timeoutMs: 30_000 });

  await app.pageEval(`void (location.href = 'https://example.com/elsewhere')`);
  await app.until((s) => s.windows[0]?.refusedNavigations.includes('https://example.com/elsewhere'), 'the navigation refused');
  await app.pageEval(`void (location.href = 'http://127.0.0.1:9/other-port')`);
  await app.until((s) => s.windows[0]?.refusedNavigations.includes('http://127.0.0.1:9/other-port'), 'the other port refused');
  const popup = await app.pageEval(`window.open('https://example.org/docs', '_blank') === null`);
  assert.equal(popup, true);
  const s = await app.until((st) => st.windows[0]?.deniedPopups.includes('https://example.org/docs') && st, 'window.open denied');
  assert.equal(s.windows[0]?.url, `${origin}/`, 'the window still shows the core');
  // An https link outside goes to the user's browser; a local address goes nowhere.
  assert.deepEqual(s.openedExternally, ['https://example.com/elsewhere', 'https://example.org/docs']);
  assert.equal(s.windows.length, 1);
  assert.equal(await app.pageEval('location.href'), `${origin}/`);
  await quitAndWait(app);
});

test('stand-in Electron: a second instance hands over its argv and quits; closing hides to the tray; Open shows it again', async () => {
  const { dataDir } = await prepareDataDir();
  const home = tempDir('sanad-home-');
  const first = launchApp({ home, dataDir });
  await coreOrigin(first);
  // The window shows on ready-to-show, after its URL is set; a person can only close a shown window.
  await first.until((st) => st.windows[0]?.visible === true, 'the window shown');
  await first.send({ op: 'close-window' });
  let s = await first.state();
  assert.deepEqual([s.windows[0]?.visible, s.windows[0]?.destroyed], [false, false], 'closed means hidden, not gone');
  assert.ok(s.tray !== null, 'Sanad stays in the tray');

  const second = launchApp({ home, dataDir, args: ['--from-second'] });
  assert.equal(await second.exited, 0, second.logTail());
  s = await first.until((st) => st.secondInstances.length === 1 && st, "the second instance's argv");
  assert.ok(s.secondInstances[0]?.argv.includes('--from-second'), JSON.stringify(s.secondInstances));
  assert.equal(s.windows[0]?.visible, true, 'the first instance shows its window');
  assert.equal(s.windows.length, 1);

  await first.send({ op: 'close-window' });
  assert.equal((await first.state()).windows[0]?.visible, false);
  await first.send({ op: 'tray-click', label: 'Open Sanad' });
  assert.equal((await first.state()).windows[0]?.visible, true);
  await first.send({ op: 'close-window' });
  await first.send({ op: 'tray-activate' });
  assert.equal((await first.state()).windows[0]?.visible, true, 'a click on the tray icon opens it too');
  await quitAndWait(first, { op: 'tray-click', label: 'Quit Sanad' });
});

test('stand-in Electron: a data dir that cannot be used ends in one clear error box and exit 1, not an app that never opens', async () => {
  const notADir = join(tempDir('sanad-file-'), 'data');
  writeFileSync(notADir, 'not a folder');
  const app = launchApp({ dataDir: notADir });
  assert.equal(await app.exited, 1, app.logTail());
  assert.match(
    app.logTail(),
    /stand-in Electron: error box "Sanad could not start": The data dir .* is a file, not a folder: choose another with --data-dir or SANAD_DATA_DIR\./,
  );
});
