// The desktop app opens where the person left off: the stand-in Electron runs the real main
// process (dist/electron/main.js) with a real core and a real Chromium window. A conversation
// opened in the Chat screen is remembered by the shell (its route, from did-navigate-in-page), so
// the next launch's window opens on it, and a launch in the tray (--hidden) opens it from "Open
// Sanad". A route of another shape is never remembered.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { screenToRemember, windowUrl } from '../../electron/logic/last-screen.js';
import { Api, str, waitFor } from '../harness/api.js';
import { addDemoModel, prepareDataDir, tempDir } from '../harness/data-dir.js';
import { coreOrigin, launchApp, quitAndWait } from './stand-in/launch.js';

const stateFile = (home: string): string => join(home, '.config', 'Sanad', 'desktop-state.json');
const lastScreen = (home: string): unknown => {
  try {
    const parsed: unknown = JSON.parse(readFileSync(stateFile(home), 'utf8'));
    return typeof parsed === 'object' && parsed !== null && 'lastScreen' in parsed ? parsed.lastScreen : null;
  } catch {
    return null;
  }
};

test("the last screen: only a plain route of the core's own page is remembered", () => {
  const origin = 'http://127.0.0.1:4000';
  assert.equal(screenToRemember(`${origin}/#/chat/conv_abc`, origin), '#/chat/conv_abc');
  assert.equal(screenToRemember(`${origin}/#/backups/local%3A12`, origin), '#/backups/local%3A12');
  assert.equal(screenToRemember(`http://127.0.0.1:4001/#/chat/conv_abc`, origin), null, 'another port');
  assert.equal(screenToRemember(`${origin}/login?code=x#/chat`, origin), null, 'a login link');
  assert.equal(screenToRemember(`${origin}/#/chat/a/b`, origin), null, 'deeper than a screen and an id');
  assert.equal(screenToRemember(`${origin}/#/Chat`, origin), null);
  assert.equal(windowUrl('http://127.0.0.1:5000', '#/chat/conv_abc'), 'http://127.0.0.1:5000/#/chat/conv_abc');
  assert.equal(windowUrl('http://127.0.0.1:5000', 'javascript:alert(1)'), 'http://127.0.0.1:5000/');
  assert.equal(windowUrl('http://127.0.0.1:5000', null), 'http://127.0.0.1:5000/');
});

test('stand-in Electron: the window opens on the conversation used last, at launch and from the tray', async () => {
  const prepared = await prepareDataDir();
  await addDemoModel(prepared.dataDir, 'demo');
  const home = tempDir('sanad-home-');
  const first = launchApp({ home, dataDir: prepared.dataDir });
  const origin = await coreOrigin(first);
  await first.send({ op: 'page-wait', selector: '[data-testid=live-state]', timeoutMs: 30_000 });
  const conv = await new Api(origin, prepared.adminToken).post('/v1/conversations', {
    metadata: { title: 'Where I left off' },
    items: [{ role: 'user', content: 'Hello' }],
  });
  assert.equal(conv.status, 200, conv.text);
  const id = str(conv.body, 'id');
  await first.pageEval(`void (location.hash = '#/chat/${id}')`);
  await waitFor(() => lastScreen(home) === `#/chat/${id}`, 15_000, 'the shell to remember the screen');
  await quitAndWait(first);

  const second = launchApp({ home, dataDir: prepared.dataDir });
  const origin2 = await coreOrigin(second);
  await second.send({ op: 'page-wait', selector: '[data-testid=chat-title]', timeoutMs: 30_000 });
  let s = await second.state();
  assert.deepEqual(s.windows[0]?.loaded, [`${origin2}/#/chat/${id}`]);
  // The title shows before the conversation's metadata has arrived; it is the conversation's own once it has.
  await waitFor(
    async () => (await second.pageEval('document.querySelector("[data-testid=chat-title]")?.textContent')) === 'Where I left off',
    15_000,
    'the conversation used last, by its title',
  );
  await quitAndWait(second);

  // A launch in the tray has no window until "Open Sanad", which opens it there too.
  const third = launchApp({ home, dataDir: prepared.dataDir, args: ['--hidden'] });
  s = await third.until((st) => st.tray !== null && st, 'the tray of a hidden launch');
  assert.equal(s.windows.length, 0);
  await third.send({ op: 'tray-click', label: 'Open Sanad' });
  const origin3 = await coreOrigin(third);
  await third.send({ op: 'page-wait', selector: '[data-testid=chat-title]', timeoutMs: 30_000 });
  s = await third.state();
  assert.deepEqual(s.windows[0]?.loaded, [`${origin3}/#/chat/${id}`]);
  await quitAndWait(third);
});
