// Start at login, off by default, the way each OS expects it:
// - macOS and Windows: the OS's own login items (app.setLoginItemSettings), which the user also sees
//   and can switch off in System Settings / Task Manager;
// - Linux: an XDG autostart entry, `$XDG_CONFIG_HOME/autostart/sanad.desktop` (~/.config when the
//   variable is unset), which every freedesktop session (GNOME, KDE, Xfce…) runs at login.
// The OS state IS the setting: there is no copy in Sanad's settings that could disagree with what
// the user changed in the OS. Launches from login pass `--hidden` (launch-args.ts).
// An AppImage runs from a temporary mount, so its entry must name the AppImage file ($APPIMAGE),
// not the executable inside the mount; that file can move, so the entry is rewritten at each launch.
import { join } from 'node:path';
import { HIDDEN_FLAG } from './launch-args.js';

export const AUTOSTART_FILE = 'sanad.desktop';

export type LoginItemPlan =
  { kind: 'os'; settings: { openAtLogin: boolean; path: string; args: string[] } } | { kind: 'xdg'; path: string; content: string | null };

export interface LoginItemContext {
  platform: NodeJS.Platform;
  env: Record<string, string | undefined>;
  homedir: string;
  /** process.execPath */
  execPath: string;
  /** Arguments before our own: the app folder when running unpackaged (`electron <dir>`), else none. */
  appArgs: string[];
}

export function autostartPath(env: Record<string, string | undefined>, homedir: string): string {
  const config = env.XDG_CONFIG_HOME !== undefined && env.XDG_CONFIG_HOME.startsWith('/') ? env.XDG_CONFIG_HOME : join(homedir, '.config');
  return join(config, 'autostart', AUTOSTART_FILE);
}

/** What starts Sanad: the AppImage file when running from one, else this executable. */
export function launcherPath(env: Record<string, string | undefined>, execPath: string): string {
  return env.APPIMAGE !== undefined && env.APPIMAGE.startsWith('/') ? env.APPIMAGE : execPath;
}

/**
 * One argument of a desktop entry's Exec key, quoted per the Desktop Entry Specification: inside
 * double quotes, `"`, `` ` ``, `$` and `\` take a backslash; `%` is doubled (field codes); and the
 * whole value is then escaped as a string value (a backslash doubled again).
 */
export function execArg(arg: string): string {
  if (/[\n\r]/.test(arg)) throw new Error('A launcher path with a line break cannot go in a desktop entry.');
  const plain = /^[A-Za-z0-9_@+=:,./-]+$/.test(arg);
  const quoted = plain ? arg : `"${arg.replace(/["`$\\]/g, (c) => `\\${c}`)}"`;
  return quoted.replace(/%/g, '%%').replace(/\\/g, '\\\\');
}

export function autostartEntry(command: readonly string[]): string {
  return [
    '[Desktop Entry]',
    'Type=Application',
    'Name=Sanad',
    'Comment=Local models with backups you can prove',
    `Exec=${command.map(execArg).join(' ')}`,
    'Terminal=false',
    'X-GNOME-Autostart-enabled=true',
    '',
  ].join('\n');
}

export function loginItemPlan(ctx: LoginItemContext, enabled: boolean): LoginItemPlan {
  const args = [...ctx.appArgs, HIDDEN_FLAG];
  if (ctx.platform === 'darwin' || ctx.platform === 'win32') {
    return { kind: 'os', settings: { openAtLogin: enabled, path: ctx.execPath, args } };
  }
  const path = autostartPath(ctx.env, ctx.homedir);
  return { kind: 'xdg', path, content: enabled ? autostartEntry([launcherPath(ctx.env, ctx.execPath), ...args]) : null };
}

/** Whether an autostart entry's text turns Sanad on (the user may have set Hidden=true or disabled it). */
export function autostartEnabled(content: string | null): boolean {
  if (content === null) return false;
  const lines = content.split(/\r?\n/).map((l) => l.trim());
  return !lines.includes('Hidden=true') && !lines.includes('X-GNOME-Autostart-enabled=false');
}
