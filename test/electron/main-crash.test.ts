// The desktop app when something breaks, under the stand-in Electron with a real core and a real
// Chromium window. An error nobody caught in the main process: the core stops the way Quit stops it
// (the store whole, the service record gone), one box says so in the person's language (Arabic
// here, as chosen in the GUI), "Save diagnostics" writes the bundle where the save dialog said, and
// the app exits 1. A renderer that crashes is reloaded once; crashing again soon after, it is said
// (and not reloaded forever).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { extract } from 'tar';
import { systemClock, unixSeconds } from '../../src/clock.js';
import { openStore } from '../../src/store/open.js';
import { writeSettings } from '../../src/store/settings.js';
import { field } from '../harness/api.js';
import { prepareDataDir, tempDir } from '../harness/data-dir.js';
import { coreOrigin, launchApp, quitAndWait } from './stand-in/launch.js';
import { serviceFilePath, storePath } from '../../src/files/data-dir-layout.js';

test('an error nobody caught in the main process: a clean stop, one Arabic box, diagnostics saved, exit 1', async () => {
  const { dataDir } = await prepareDataDir();
  const db = openStore(storePath(dataDir));
  writeSettings(db, { language: 'ar' }, unixSeconds(systemClock));
  db.close();
  const out = join(tempDir('sanad-saved-'), 'diagnostics.tar.gz');
  // The person presses "Save diagnostics…" (button 0) and picks `out`.
  const app = launchApp({ dataDir, env: { SANAD_STAND_IN_MESSAGE_BOX_ANSWERS: '0', SANAD_STAND_IN_SAVE_PATH: out } });
  await coreOrigin(app);
  assert.ok(existsSync(serviceFilePath(dataDir)), 'the core is serving');
  await app.send({ op: 'throw-in-main', message: 'a test made the main process fail' });
  assert.equal(await app.exited, 1, `the app exits non-zero\n${app.logTail()}`);
  assert.deepEqual(app.violations, []);

  const tail = app.logTail(200);
  assert.match(tail, /message box "توقف سند": واجه سند خطأً لم يتوقعه/, 'one box, in Arabic');
  assert.match(tail, /the desktop app met an error nobody caught; stopping/, 'logged');
  assert.equal(existsSync(serviceFilePath(dataDir)), false, 'the core stopped as at Quit: its service record is gone');
  const store = openStore(storePath(dataDir), { readonly: true });
  try {
    assert.equal(store.pragma('integrity_check', { simple: true }), 'ok');
  } finally {
    store.close();
  }

  assert.ok(existsSync(out), 'the diagnostics were saved where the dialog said');
  const unpacked = tempDir('sanad-unpacked-');
  await extract({ file: out, cwd: unpacked });
  const versions: unknown = JSON.parse(readFileSync(join(unpacked, 'versions.json'), 'utf8'));
  assert.equal(field(versions, 'crash'), 'a test made the main process fail');
  assert.match(readFileSync(join(unpacked, 'log-1.txt'), 'utf8'), /met an error nobody caught/, "with the app's own log");
});

test('a renderer that crashes is reloaded once; crashing again at once, the person is told', async () => {
  const { dataDir } = await prepareDataDir();
  // The person closes the box (button 2) the second crash brings.
  const app = launchApp({ dataDir, env: { SANAD_STAND_IN_MESSAGE_BOX_ANSWERS: '2', LANG: 'en_US.UTF-8' } });
  await coreOrigin(app);
  await app.send({ op: 'page-wait', selector: 'main h1', timeoutMs: 30_000 });

  await app.send({ op: 'crash-renderer' });
  await app.until((s) => s.windows[0]?.reloads === 1 && s.windows[0].url.startsWith('http://127.0.0.1:'), 'the window to be reloaded on the core');
  await app.send({ op: 'page-wait', selector: 'main h1', timeoutMs: 30_000 });
  const once = await app.state();
  assert.equal(once.messageBoxes.length, 0, 'the first crash is mended without a word');

  await app.send({ op: 'crash-renderer' });
  const box = await app.until((s) => s.messageBoxes[0], 'the second crash to be said');
  assert.equal(box.title, 'The Sanad window stopped');
  assert.deepEqual(box.buttons, ['Reload the window', 'Save diagnostics…', 'Close']);
  assert.equal((await app.state()).windows[0]?.reloads, 1, 'not reloaded again by itself');
  await quitAndWait(app);
});
