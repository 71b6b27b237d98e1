// Test helpers around DesktopApp: a fresh HOME per person, the data dir the harness prepares, and
// every app a test starts ended when the test file ends (a failed assertion leaves none behind).
import { after } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { tempDir } from '../../harness/data-dir.js';
import { DesktopApp } from './driver.js';
import type { StandInState } from './protocol.js';

const started: DesktopApp[] = [];
after(async () => {
  for (const a of started) await a.kill();
});

export function launchApp(options: { home?: string; dataDir: string; args?: string[]; env?: Record<string, string> }): DesktopApp {
  const app = DesktopApp.launch({ ...options, home: options.home ?? tempDir('sanad-home-') });
  started.push(app);
  return app;
}

/** The window's page origin, once it shows the core (http://127.0.0.1:PORT). */
export async function coreOrigin(app: DesktopApp): Promise<string> {
  const url = await app.until((s) => s.windows[0]?.url.startsWith('http://127.0.0.1:') && s.windows[0].url, 'the window on the core');
  return new URL(url).origin;
}

export function trayTooltip(s: StandInState): string {
  return s.tray?.tooltip ?? '';
}

/** The state the tray icon shows, from its image file name (tray-<state>.png). */
export function trayState(s: StandInState): string | null {
  return s.tray ? (/tray-(\w+)\.png$/.exec(s.tray.image)?.[1] ?? null) : null;
}

export function portOpen(origin: string): Promise<boolean> {
  const u = new URL(origin);
  return new Promise((resolve) => {
    const c = connect(Number(u.port), u.hostname, () => {
      c.end();
      resolve(true);
    });
    c.on('error', () => resolve(false));
  });
}

export async function quitAndWait(app: DesktopApp, how: { op: 'quit' } | { op: 'tray-click'; label: string } = { op: 'quit' }): Promise<void> {
  await app.send(how);
  assert.equal(await app.exited, 0, `the app exited cleanly\n${app.logTail()}`);
  assert.deepEqual(app.violations, [], 'the app asked nothing Electron would refuse');
}
