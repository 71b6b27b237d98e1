// A real Secret Service of the test's own: a private D-Bus session bus and a gnome-keyring daemon
// on it, unlocked, with its files in a temp dir. Unlike the suite's shared keyring, this one can
// be stopped and started again under a running `sanad serve` (the keychain going away).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './data-dir.js';

export interface PrivateKeyring {
  /** The environment a process needs to use this keyring. */
  env: Record<string, string>;
  /** Locks the login keyring (as a screen lock or the user does); a restart unlocks it again. */
  lock(): void;
  stopDaemon(): Promise<void>;
  startDaemon(): Promise<void>;
  close(): Promise<void>;
}

const PASSWORD = 'sanad-private-test';

function nameOwned(env: Record<string, string>): boolean {
  const r = spawnSync(
    'dbus-send',
    [
      '--session',
      '--print-reply',
      '--dest=org.freedesktop.DBus',
      '/org/freedesktop/DBus',
      'org.freedesktop.DBus.NameHasOwner',
      'string:org.freedesktop.secrets',
    ],
    {
      env: { ...process.env, ...env },
      encoding: 'utf8',
    },
  );
  return r.status === 0 && r.stdout.includes('boolean true');
}

async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** `loginKeyring`: a gnome-keyring file (password PASSWORD) to start from, e.g. one keytar wrote. */
export async function startPrivateKeyring(options: { loginKeyring?: string } = {}): Promise<PrivateKeyring> {
  const home = tempDir('sanad-keyring-');
  const runtime = join(home, 'run');
  mkdirSync(runtime, { mode: 0o700 });
  if (options.loginKeyring !== undefined) {
    mkdirSync(join(home, 'data', 'keyrings'), { recursive: true, mode: 0o700 });
    copyFileSync(options.loginKeyring, join(home, 'data', 'keyrings', 'login.keyring'));
  }
  // No service directories: a stopped keyring stays stopped (D-Bus activation would start another
  // daemon, with other files, behind the test's back).
  const config = join(home, 'bus.conf');
  writeFileSync(
    config,
    `<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-BUS Bus Configuration 1.0//EN" "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig><type>session</type><listen>unix:path=${join(home, 'bus')}</listen><auth>EXTERNAL</auth>
<policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/></policy></busconfig>
`,
  );
  const bus = spawn('dbus-daemon', [`--config-file=${config}`, '--nofork', '--print-address=1'], { stdio: ['ignore', 'pipe', 'ignore'] });
  const address = await new Promise<string>((resolve, reject) => {
    let out = '';
    bus.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const line = out.split('\n')[0];
      if (out.includes('\n') && line) resolve(line.trim());
    });
    bus.once('exit', (code) => reject(new Error(`dbus-daemon exited with ${String(code)}`)));
  });
  const env = { DBUS_SESSION_BUS_ADDRESS: address, XDG_DATA_HOME: join(home, 'data'), XDG_RUNTIME_DIR: runtime };
  let daemon: ChildProcess | null = null;
  const startDaemon = async (): Promise<void> => {
    const child = spawn('gnome-keyring-daemon', ['--foreground', '--unlock', '--components=secrets'], {
      env: { ...process.env, ...env },
      stdio: ['pipe', 'ignore', 'ignore'],
    });
    child.stdin?.end(PASSWORD);
    daemon = child;
    await until(() => nameOwned(env), 'the keyring to own org.freedesktop.secrets');
  };
  const stopDaemon = async (): Promise<void> => {
    const child = daemon;
    daemon = null;
    if (!child || child.exitCode !== null) return;
    const gone = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await gone;
    await until(() => !nameOwned(env), 'the keyring to leave the bus');
  };
  await startDaemon();
  return {
    env,
    lock: () => {
      const r = spawnSync(
        'dbus-send',
        [
          '--session',
          '--print-reply',
          '--dest=org.freedesktop.secrets',
          '/org/freedesktop/secrets',
          'org.freedesktop.Secret.Service.Lock',
          'array:objpath:/org/freedesktop/secrets/collection/login',
        ],
        {
          env: { ...process.env, ...env },
          encoding: 'utf8',
        },
      );
      if (r.status !== 0) throw new Error(`could not lock the keyring: ${r.stderr}`);
    },
    startDaemon,
    stopDaemon,
    close: async () => {
      await stopDaemon();
      bus.kill('SIGTERM');
    },
  };
}
