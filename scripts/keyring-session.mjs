// Runs the calling script again inside a private D-Bus session with a fresh, unlocked
// gnome-keyring whose files live in a temp dir, when there is no session bus (CI, SSH, a server):
// the tests and the bench then use a real keychain, and never the user's own.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Returns when the caller may go on; otherwise runs it in the session and exits with its status. */
export function ensureKeyringSession() {
  if (process.env.DBUS_SESSION_BUS_ADDRESS || process.env.SANAD_TEST_NO_KEYRING_SESSION) return;
  const which = spawnSync('sh', ['-c', 'command -v dbus-run-session && command -v gnome-keyring-daemon'], { encoding: 'utf8' });
  if (which.status !== 0) {
    console.error('This needs dbus-run-session and gnome-keyring-daemon (apt-get install dbus gnome-keyring); run scripts/setup.sh.');
    process.exit(1);
  }
  const home = mkdtempSync(join(tmpdir(), 'sanad-keyring-'));
  const inner = 'echo -n sanad-test | gnome-keyring-daemon --unlock --components=secrets >/dev/null && exec "$0" "$@"';
  const run = spawnSync('dbus-run-session', ['--', 'sh', '-c', inner, process.execPath, ...process.argv.slice(1)], {
    stdio: 'inherit',
    env: { ...process.env, XDG_DATA_HOME: home, XDG_RUNTIME_DIR: home, SANAD_TEST_NO_KEYRING_SESSION: '1' },
  });
  rmSync(home, { recursive: true, force: true });
  process.exit(run.status ?? 1);
}
