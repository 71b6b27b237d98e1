// A stand-in for the `electron` module, for tests only: no Electron binary can be had on these
// machines. test/electron/stand-in/register.ts resolves `electron` to this file, so the app's
// compiled main process (dist/electron/main.js) runs under Node, unchanged, against it. Each part
// is typed against Electron's own electron.d.ts; what the app asks is recorded, and a test drives
// and reads it over the fork IPC channel (protocol.ts).
import { app } from './app.js';
import { ipcMain } from './ipc-main.js';
import type { Command, Reply, Request, StandInState } from './protocol.js';
import { reject, standInEvent, violations } from './recorder.js';
import { session } from './session.js';
import { dialog, dialogs, nativeImage, opened, powerMonitor, shell, StandInMenu, StandInNotification, StandInTray } from './shell-parts.js';
import { autoUpdater, net, requested } from './net.js';
import { forks, utilityProcess } from './utility-process.js';
import { closeBrowser, closeWindowsForQuit, StandInBrowserWindow } from './window.js';

export { app, autoUpdater, dialog, ipcMain, nativeImage, net, powerMonitor, session, shell, utilityProcess };
export const BrowserWindow = StandInBrowserWindow;
export const Menu = StandInMenu;
export const Tray = StandInTray;
export const Notification = StandInNotification;
// The renderer-side modules exist only in a preload; there the window's page bridge gives them.
export const contextBridge = { exposeInMainWorld: (): never => reject('contextBridge is only available in a preload script') };
export const ipcRenderer = { invoke: (): never => reject('ipcRenderer is only available in a renderer') };

app.windowsClose = closeWindowsForQuit;
app.closeAll = closeBrowser;
app.onExit = (code) => {
  const end = (): never => process.exit(code);
  if (process.send !== undefined && process.connected) process.send({ notice: 'exit', code }, () => end());
  else end();
};

function state(): StandInState {
  const tray = StandInTray.current;
  return {
    app: {
      name: app.getName(),
      sandbox: app.sandbox,
      userData: app.getPath('userData'),
      logs: app.getPath('logs'),
      hasLock: app.hasLock,
      ready: app.isReady(),
    },
    secondInstances: [...app.secondInstances],
    windows: StandInBrowserWindow.all.map((w) => w.state()),
    tray:
      tray === null
        ? null
        : { image: tray.image.path, tooltip: tray.tooltip, menu: tray.menu?.items.map((i) => i.state()) ?? [], destroyed: tray.isDestroyed() },
    trayImages: [...StandInTray.images],
    notifications: [...StandInNotification.shown],
    errorBoxes: [...dialogs.errorBoxes],
    messageBoxes: [...dialogs.messageBoxes],
    saved: [...dialogs.saved],
    openedExternally: [...opened.external],
    ipcChannels: ipcMain.channels(),
    utilityForks: forks.map((f) => ({ ...f })),
    netRequests: [...requested],
    session: {
      headersHandler: session.defaultSession.webRequest.listener !== null,
      permissionRequestHandler: session.defaultSession.permissionRequestHandler,
      permissionCheckHandler: session.defaultSession.permissionCheckHandler,
      headersRewritten: session.defaultSession.webRequest.rewritten,
    },
    violations: [...violations],
  };
}

function mainWindow(): StandInBrowserWindow {
  const w = StandInBrowserWindow.all[0];
  if (w === undefined) throw new Error('the app has opened no window');
  return w;
}

function tray(): StandInTray {
  if (StandInTray.current === null) throw new Error('the app has no tray icon');
  return StandInTray.current;
}

async function run(command: Command): Promise<unknown> {
  switch (command.op) {
    case 'state':
      return state();
    case 'tray-click':
      return tray().click(command.label);
    case 'tray-activate':
      return void tray().emit('click', standInEvent({}), { x: 0, y: 0, width: 22, height: 22 });
    case 'power':
      return void powerMonitor.emit(command.event, standInEvent({}));
    case 'battery':
      return void (powerMonitor.onBattery = command.on);
    case 'close-window':
      return mainWindow().close();
    case 'quit':
      return app.quit();
    case 'cookies':
      return (await mainWindow().page().context().cookies()).map((c) => c.name);
    case 'page-eval':
      return mainWindow().page().evaluate(command.expression);
    case 'page-wait':
      return void (await mainWindow().page().waitForSelector(command.selector, { timeout: command.timeoutMs }));
    case 'throw-in-main':
      return void setTimeout(() => {
        throw new Error(command.message);
      }, 0);
    case 'crash-renderer':
      return void mainWindow()
        .page()
        .goto('chrome://crash')
        .catch(() => undefined);
  }
}

function isRequest(value: unknown): value is Request {
  return typeof value === 'object' && value !== null && 'id' in value && 'command' in value && typeof value.id === 'number';
}

if (process.send !== undefined) {
  process.on('message', (message: unknown) => {
    if (!isRequest(message)) return;
    const answer = (reply: Reply): void => {
      if (process.connected) process.send?.(reply);
    };
    run(message.command).then(
      (value) => answer({ id: message.id, ok: true, value: value ?? null }),
      (err: unknown) => answer({ id: message.id, ok: false, error: err instanceof Error ? err.message : String(err) }),
    );
  });
}
