// The stand-in Electron refuses what Electron itself would refuse (or would accept only to show a
// blank icon or drop an option without a word), so a typo in the app's paths or options fails the
// main-process tests instead of shipping. Its option names come from Electron's own electron.d.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mainWindowOptions } from '../../electron/logic/window-options.js';
import { tempDir } from '../harness/data-dir.js';
import { declaredKeys } from './stand-in/declared-keys.js';
import { app, BrowserWindow, ipcMain, Menu, nativeImage, Notification } from './stand-in/electron.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const PRELOAD = join(ROOT, 'dist', 'electron', 'preload.cjs');
const ICON = join(ROOT, 'build', 'icons', 'icon.png');

test('stand-in Electron: option names are read from electron.d.ts', () => {
  const prefs = declaredKeys('WebPreferences');
  for (const k of ['preload', 'contextIsolation', 'sandbox', 'nodeIntegration', 'webSecurity', 'spellcheck']) assert.ok(prefs.has(k), k);
  const win = declaredKeys('BrowserWindowConstructorOptions');
  for (const k of ['webPreferences', 'show', 'title', 'width', 'minWidth', 'icon', 'backgroundColor'])
    assert.ok(win.has(k), `${k} (own or from BaseWindowConstructorOptions)`);
  assert.equal(prefs.has('nodeIntegrationn'), false);
  assert.throws(() => declaredKeys('NoSuchOptions'), /declares no interface NoSuchOptions/);
});

test('stand-in Electron: refuses what Electron would reject or silently drop', async () => {
  await app.whenReady();
  // The app's real window options pass.
  const ok = new BrowserWindow(mainWindowOptions(PRELOAD, ICON));
  assert.equal(ok.isVisible(), false, 'show: false');
  assert.throws(
    () =>
      new BrowserWindow({
        ...mainWindowOptions(PRELOAD, ICON),
        webPreferences: { ...mainWindowOptions(PRELOAD).webPreferences, ...{ nodeIntegrationn: false } },
      }),
    /webPreferences Electron does not know: nodeIntegrationn/,
  );
  assert.throws(() => new BrowserWindow({ show: false, ...{ titel: 'Sanad' } }), /BrowserWindow options Electron does not know: titel/);
  assert.throws(() => new BrowserWindow(mainWindowOptions(tempDir('sanad-not-a-file-'))), /Unable to load preload script: .* \(not a file\)/);
  assert.throws(() => new BrowserWindow(mainWindowOptions('dist/electron/preload.cjs')), /preload must be an absolute path/);
  assert.throws(() => nativeImage.createFromPath(join(ROOT, 'build', 'icons', 'tray-fine.png')), /no image at .*tray-fine\.png/);
  assert.equal(nativeImage.createFromPath(ICON).isEmpty(), false);
  assert.throws(() => Menu.buildFromTemplate([{}]), /must have at least one of label, role or type/);
  assert.throws(() => Menu.buildFromTemplate([{ label: 'x', ...{ clik: () => undefined } }]), /menu item options Electron does not know: clik/);
  assert.throws(() => new Notification({ title: 't', ...{ urgencyy: 'low' } }), /Notification options Electron does not know: urgencyy/);
  ipcMain.handle('stand-in:once', () => 1);
  assert.throws(() => ipcMain.handle('stand-in:once', () => 2), /second handler for 'stand-in:once'/);
});
