// Start at login: applies logic/login-item.ts's plan, through the OS's login items on macOS and
// Windows or the XDG autostart file on Linux, and reads the current state back from the same place.
import { app } from 'electron';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, resolve } from 'node:path';
import { autostartEnabled, loginItemPlan, type LoginItemContext } from './logic/login-item.js';

function context(): LoginItemContext {
  return {
    platform: process.platform,
    env: process.env,
    homedir: homedir(),
    execPath: process.execPath,
    // Unpackaged (`electron dist/electron/main.js`), Electron needs the entry script to start it.
    appArgs: app.isPackaged ? [] : [resolve(process.argv[1] ?? '.')],
  };
}

function readOrNull(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

export function openAtLogin(): boolean {
  const plan = loginItemPlan(context(), true);
  if (plan.kind === 'os') return app.getLoginItemSettings({ path: plan.settings.path, args: plan.settings.args }).openAtLogin;
  return autostartEnabled(readOrNull(plan.path));
}

export function setOpenAtLogin(enabled: boolean): void {
  const plan = loginItemPlan(context(), enabled);
  if (plan.kind === 'os') {
    app.setLoginItemSettings(plan.settings);
    return;
  }
  if (plan.content === null) {
    rmSync(plan.path, { force: true });
    return;
  }
  mkdirSync(dirname(plan.path), { recursive: true });
  writeFileSync(plan.path, plan.content, { mode: 0o644 });
}

/** An AppImage may have moved since the entry was written: point the entry at where it is now. */
export function refreshOpenAtLogin(): void {
  if (process.platform === 'linux' && openAtLogin()) setOpenAtLogin(true);
}

/** macOS tells a login launch by this flag instead of arguments. */
export function openedAtLogin(): boolean {
  return process.platform === 'darwin' && app.getLoginItemSettings().wasOpenedAtLogin;
}
