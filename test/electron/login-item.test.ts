// Start at login: the XDG autostart entry on Linux (path, quoting, AppImage) and the OS login item
// elsewhere; off unless switched on; and the `--hidden` launch it makes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseLaunchArgs } from '../../electron/logic/launch-args.js';
import {
  autostartEnabled,
  autostartEntry,
  autostartPath,
  execArg,
  launcherPath,
  loginItemPlan,
  type LoginItemContext,
} from '../../electron/logic/login-item.js';

const linux: LoginItemContext = { platform: 'linux', env: {}, homedir: '/home/ana', execPath: '/opt/Sanad/sanad', appArgs: [] };

test('linux: the autostart file follows XDG_CONFIG_HOME, else ~/.config', () => {
  assert.equal(autostartPath({}, '/home/ana'), '/home/ana/.config/autostart/sanad.desktop');
  assert.equal(autostartPath({ XDG_CONFIG_HOME: '/srv/cfg' }, '/home/ana'), '/srv/cfg/autostart/sanad.desktop');
  // The spec ignores a relative value.
  assert.equal(autostartPath({ XDG_CONFIG_HOME: 'cfg' }, '/home/ana'), '/home/ana/.config/autostart/sanad.desktop');
});

test('linux: on writes an entry that starts the installed app hidden; off removes it', () => {
  const on = loginItemPlan(linux, true);
  assert.equal(on.kind, 'xdg');
  assert.ok(on.kind === 'xdg' && on.content !== null);
  assert.equal(on.path, '/home/ana/.config/autostart/sanad.desktop');
  assert.match(on.content, /^\[Desktop Entry\]\nType=Application\nName=Sanad\n/);
  assert.match(on.content, /\nExec=\/opt\/Sanad\/sanad --hidden\n/);
  assert.ok(autostartEnabled(on.content));
  const off = loginItemPlan(linux, false);
  assert.ok(off.kind === 'xdg' && off.content === null && off.path === on.path);
  assert.equal(autostartEnabled(null), false, 'no file: off (the default)');
  assert.equal(autostartEnabled(`${on.content}Hidden=true\n`), false, 'the user hid it');
  assert.equal(autostartEnabled(on.content.replace('X-GNOME-Autostart-enabled=true', 'X-GNOME-Autostart-enabled=false')), false);
});

test('linux AppImage: the entry names the AppImage file, quoted per the Desktop Entry spec', () => {
  const ctx = { ...linux, env: { APPIMAGE: '/home/ana/Apps/Sanad 0.1 "beta" $x 100%.AppImage' }, execPath: '/tmp/.mount_SanadXYZ/sanad' };
  assert.equal(launcherPath(ctx.env, ctx.execPath), ctx.env.APPIMAGE);
  const plan = loginItemPlan(ctx, true);
  assert.ok(plan.kind === 'xdg' && plan.content !== null);
  const exec = plan.content.split('\n').find((l) => l.startsWith('Exec='));
  // Quoting escapes " and $ with a backslash, then the string escape doubles every backslash; % doubles.
  assert.equal(exec, 'Exec="/home/ana/Apps/Sanad 0.1 \\\\"beta\\\\" \\\\$x 100%%.AppImage" --hidden');
  assert.equal(execArg('/plain/path-1.0'), '/plain/path-1.0');
  assert.equal(execArg('C:\\x y'), '"C:\\\\\\\\x y"');
  assert.throws(() => execArg('a\nb'), /line break/);
  // Unpackaged runs need the app folder after the Electron binary.
  const dev = loginItemPlan({ ...linux, execPath: '/repo/node_modules/electron/dist/electron', appArgs: ['/repo'] }, true);
  assert.ok(dev.kind === 'xdg' && dev.content?.includes('Exec=/repo/node_modules/electron/dist/electron /repo --hidden'));
  assert.equal(autostartEntry(['/a']).endsWith('\n'), true);
});

test('macOS and Windows: the OS login item, with the hidden flag', () => {
  for (const platform of ['darwin', 'win32'] as const) {
    const plan = loginItemPlan({ ...linux, platform, execPath: 'C:\\Program Files\\Sanad\\Sanad.exe' }, true);
    assert.deepEqual(plan, { kind: 'os', settings: { openAtLogin: true, path: 'C:\\Program Files\\Sanad\\Sanad.exe', args: ['--hidden'] } });
    const off = loginItemPlan({ ...linux, platform }, false);
    assert.ok(off.kind === 'os' && off.settings.openAtLogin === false);
  }
});

test('launch args: --hidden (or a macOS login launch) starts in the tray; otherwise a window', () => {
  assert.deepEqual(parseLaunchArgs(['/opt/Sanad/sanad']), { hidden: false });
  assert.deepEqual(parseLaunchArgs(['/opt/Sanad/sanad', '--hidden']), { hidden: true });
  assert.deepEqual(parseLaunchArgs(['electron', '/repo', '--hidden']), { hidden: true });
  assert.deepEqual(parseLaunchArgs(['/Applications/Sanad.app/Contents/MacOS/Sanad'], true), { hidden: true });
  assert.deepEqual(parseLaunchArgs(['/opt/Sanad/sanad', '--hiddenx']), { hidden: false });
});
