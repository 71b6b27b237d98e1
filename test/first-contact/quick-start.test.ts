// The README's start command on a machine with no desktop session (no D-Bus, a fresh HOME):
// `npm start` serves, says at start that the keys are in a file and names it, the file is 0600 in
// a 0700 folder outside the data dir, /health/ready warns `secrets`, and the CLI finds the same
// file later. `sanad serve` alone on a fresh data dir still refuses, as before.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { field, str } from '../harness/api.js';
import { tempDir } from '../harness/data-dir.js';
import { runSanad } from '../harness/run-sanad.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** A fresh user on a machine without a desktop session: no bus, no display, nothing in HOME. */
function headlessEnv(home: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, SANAD_THREADS: '1', SANAD_GPU: 'off' };
  for (const k of ['DBUS_SESSION_BUS_ADDRESS', 'DISPLAY', 'XDG_CONFIG_HOME', 'XDG_DATA_HOME', 'XDG_RUNTIME_DIR', 'SANAD_DATA_DIR', 'SANAD_SECRETS_FILE'])
    delete env[k];
  return env;
}

test('npm start on a headless machine serves with the secrets in a file it names; serve alone still refuses', async () => {
  const home = tempDir('sanad-home-');
  // Its own process group: npm runs `sh`, which runs `sanad serve`; the end of the test stops all three.
  const child = spawn('npm', ['start', '--silent', '--', '--port', '0', '--json'], {
    cwd: ROOT,
    env: headlessEnv(home),
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise((r) => child.once('exit', r));
  try {
    const started = await new Promise<unknown>((resolve, reject) => {
      let out = '';
      const timer = setTimeout(() => reject(new Error(`npm start did not serve: ${stderr}`)), 60_000);
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        const line = out.split('\n').find((l) => l.startsWith('{'));
        if (line) {
          clearTimeout(timer);
          resolve(JSON.parse(line));
        }
      });
      child.once('exit', (code) => reject(new Error(`npm start exited ${String(code)}: ${stderr}`)));
    });
    const dataDir = str(started, 'data_dir');
    const url = str(started, 'url');
    const secrets = join(home, '.config', 'sanad', 'secrets');
    assert.ok(stderr.includes(`Your keys are in a file (${secrets}), not in the OS keychain`), `the start says so: ${stderr}`);
    assert.match(stderr, /sanad secrets move-to-keychain/);
    assert.equal(statSync(secrets).mode & 0o777, 0o600);
    assert.equal(statSync(join(home, '.config', 'sanad')).mode & 0o777, 0o700);
    assert.ok(relative(dataDir, secrets).startsWith('..'), 'the secrets file is outside the data dir');
    assert.equal(dataDir, join(home, '.local', 'share', 'sanad'), 'the embedded default data dir');
    const ready = await fetch(`${url}/health/ready`);
    assert.equal(ready.status, 200, 'a warning, not a failure');
    const body: unknown = await ready.json();
    // Without admin the answer names the warning; its detail (the file's path) is for admin only.
    assert.ok(String(field(body, 'warnings')).includes('secrets'), JSON.stringify(body));
    assert.equal(field(body, 'checks'), undefined);

    // The CLI finds the same file with no flag (the record beside the store).
    const kit = await runSanad(['recovery-kit', '--json'], {
      env: { HOME: home, DBUS_SESSION_BUS_ADDRESS: '', DISPLAY: '', XDG_CONFIG_HOME: '', XDG_DATA_HOME: '' },
    });
    assert.equal(kit.code, 0, kit.stderr);
  } finally {
    if (child.pid !== undefined) {
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        // the group is gone already
      }
    }
    await exited;
    child.stdout.destroy();
    child.stderr.destroy();
  }

  // `sanad serve` alone, on a fresh data dir, keeps refusing: the fallback is the quick start's.
  const other = tempDir('sanad-home-');
  const refused = await runSanad(['serve', '--port', '0'], {
    env: { HOME: other, DBUS_SESSION_BUS_ADDRESS: '', DISPLAY: '', XDG_CONFIG_HOME: '', XDG_DATA_HOME: '' },
  });
  assert.equal(refused.code, 1);
  assert.match(refused.stderr, /The OS keychain is not available/);
  assert.ok(!existsSync(join(other, '.config', 'sanad', 'secrets')), 'no file was made for it');
});
