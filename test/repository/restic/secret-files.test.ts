// restic's password file lives in a 0700 folder of the data dir, never in /tmp, and a file a killed
// Sanad left there is removed at the next start: a SIGKILL or a power cut leaves no key behind.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runningChildren } from '../../../src/process/spawn.js';
import { startTestAppliance } from '../../harness/appliance.js';
import { prepareDataDir } from '../../harness/data-dir.js';
import { waitFor } from '../../harness/api.js';

test('the password file is under <data dir>/backups/secret-files (0700), gone after the run; leftovers are removed at start', async (t) => {
  const { dataDir, adminToken } = await prepareDataDir();
  const leftover = join(dataDir, 'backups', 'secret-files', 'sanad-secret-killed');
  mkdirSync(leftover, { recursive: true });
  writeFileSync(join(leftover, 'secret'), 'a passphrase from a killed run');
  const ta = await startTestAppliance({ dataDir, adminToken });
  t.after(() => ta.close());
  assert.equal(existsSync(leftover), false, 'the leftover was removed at start');

  const run = ta.appliance.ctx.backups.run('manual');
  const file = await waitFor(
    () => {
      for (const c of runningChildren()) {
        if (c.pid === undefined) continue;
        try {
          const env = readFileSync(`/proc/${c.pid}/environ`, 'utf8').split('\0');
          const entry = env.find((e) => e.startsWith('RESTIC_PASSWORD_FILE='));
          if (entry) return entry.slice('RESTIC_PASSWORD_FILE='.length);
        } catch {
          // exited meanwhile
        }
      }
      return undefined;
    },
    60_000,
    'a restic child',
  );
  assert.ok(file.startsWith(join(dataDir, 'backups', 'secret-files') + '/'), file);
  assert.equal(statSync(join(dataDir, 'backups', 'secret-files')).mode & 0o777, 0o700);
  await run;
  assert.equal(existsSync(file), false, 'removed when restic ended');
});
