// The desktop app's keychain after the keyring daemon restarts, as a packaged app meets it: the
// stand-in runs with the RunAsNode fuse off (process.execPath is a second Sanad, not Node), a real
// gnome-keyring on a private bus holds the data dir's secrets, and the daemon is stopped and started
// under the running app. The next backup needs the restic passphrase from a process with a fresh
// libsecret: it gets it from a utility process, and succeeds without a restart.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { basename } from 'node:path';
import { openStore } from '../../src/store/open.js';
import { waitFor } from '../harness/api.js';
import { prepareDataDir } from '../harness/data-dir.js';
import { startPrivateKeyring, type PrivateKeyring } from '../harness/private-keyring.js';
import { launchApp, quitAndWait } from './stand-in/launch.js';
import { storePath } from '../../src/files/data-dir-layout.js';

let keyring: PrivateKeyring | null = null;
after(async () => keyring?.close());

/** The backup runs that ended, newest first, read beside the running app. */
function finished(dataDir: string): Array<{ status: string; error: string | null }> {
  const db = openStore(storePath(dataDir), { readonly: true });
  try {
    return db
      .prepare<[], { status: string; error: string | null }>(
        "SELECT status, error FROM runs WHERE kind = 'backup' AND status NOT IN ('queued','running') ORDER BY id DESC",
      )
      .all();
  } finally {
    db.close();
  }
}

/** Clicks "Back up now" once no backup runs, and answers the run it started once it ended. */
async function backUpNow(app: ReturnType<typeof launchApp>, dataDir: string, what: string): Promise<{ status: string; error: string | null }> {
  await app.until((st) => st.tray?.menu.some((i) => i.label === 'Back up now' && i.enabled) === true, 'Back up now to be enabled', 120_000);
  const before = finished(dataDir).length;
  await app.send({ op: 'tray-click', label: 'Back up now' });
  const runs = await waitFor(() => (finished(dataDir).length > before ? finished(dataDir) : undefined), 120_000, what);
  const run = runs[0];
  assert.ok(run);
  return run;
}

test('stand-in Electron, RunAsNode fuse off: after the keyring restarts, the keychain answers through a utility process and the backup runs', async () => {
  keyring = await startPrivateKeyring();
  const { dataDir } = await prepareDataDir();
  const app = launchApp({ dataDir, args: ['--hidden'], env: { ...keyring.env, SANAD_STAND_IN_RUN_AS_NODE_FUSE: 'off' } });
  const first = await backUpNow(app, dataDir, 'the first backup');
  assert.equal(first.status, 'ok', first.error ?? '');
  assert.deepEqual((await app.state()).utilityForks, [], 'the keychain answered in the main process while its daemon was the first one');

  await keyring.stopDaemon();
  await keyring.startDaemon();
  const second = await backUpNow(app, dataDir, 'the backup after the restart');
  assert.equal(second.status, 'ok', `the backup after the keyring restart: ${second.error ?? ''}`);

  // The answer is the helper's first line; its exit follows a moment later.
  const forks = await app.until(
    (st) => st.utilityForks.length > 0 && st.utilityForks.every((f) => f.exitCode !== null) && st.utilityForks,
    'the keychain helpers to have exited',
  );
  assert.ok(forks.length > 0, 'the keychain was asked from a utility process');
  for (const f of forks) {
    assert.equal(basename(f.modulePath), 'keychain-child.js');
    assert.equal(f.serviceName, 'Sanad keychain');
    assert.deepEqual(f.args, [], 'nothing in argv (the secret travels in the environment)');
    assert.equal(f.exitCode, 0);
  }
  await quitAndWait(app);
});
