// No run waits forever: a restic that stops answering (a stand-in that sleeps where restic would
// restore or back up) is stopped by its run's watchdog once nothing moved for the limit, and the run
// fails naming the step, with nothing left running and what it made taken back. The limits here are
// seconds (the appliance's `stallMs`); Sanad's own are half an hour and more (jobs.ts STALL_MS).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runningChildren } from '../../src/process/spawn.js';
import { field, num, str, waitFor, type Api } from '../harness/api.js';
import { startTestAppliance, type TestAppliance } from '../harness/appliance.js';
import { tempDir } from '../harness/data-dir.js';

let t: TestAppliance | null = null;
after(async () => {
  delete process.env.SANAD_RESTIC;
  await t?.close();
});

/** restic, except that the given subcommands never answer (until SIGINT, as restic would get). */
function hangingRestic(...subcommands: string[]): string {
  const real = execFileSync('sh', ['-c', 'command -v restic'], { encoding: 'utf8' }).trim();
  const path = join(tempDir('sanad-hanging-restic-'), 'restic');
  const cases = subcommands.map((s) => `${s}) exec sleep 3600 ;;`).join(' ');
  writeFileSync(path, `#!/bin/sh\nfor a in "$@"; do case "$a" in ${cases} esac; done\nexec ${real} "$@"\n`);
  chmodSync(path, 0o755);
  return path;
}

const ended = (api: Api, id: number, what: string): Promise<unknown> =>
  waitFor(
    async () => {
      const body = (await api.get(`/admin/runs/${id}`)).body;
      const status = field(body, 'status');
      return status === 'queued' || status === 'running' ? undefined : body;
    },
    60_000,
    what,
  );

test('a restic that stops answering: the restore and the backup fail at their watchdog, naming the step, and leave nothing running', async () => {
  t = await startTestAppliance({ stallMs: { restore: 3000, backup: 4000 } });
  const { api } = t;
  const first = await t.appliance.ctx.backups.run('test');
  assert.equal(first.status, 'ok', JSON.stringify(first));

  process.env.SANAD_RESTIC = hangingRestic('restore', 'dump');
  const parent = tempDir('sanad-stalled-restore-');
  const target = join(parent, 'new', 'place');
  const started = await api.post('/admin/restore', { target });
  assert.equal(started.status, 202, started.text);
  const restoreId = num(started.body, 'id');
  const restore = await ended(api, restoreId, 'the stalled restore to end');
  assert.equal(field(restore, 'status'), 'failed');
  assert.match(str(restore, 'error'), /^Nothing moved for 3 seconds at the step "/);
  assert.equal(existsSync(join(parent, 'new')), false, 'the folders the restore made are removed');
  await waitFor(() => (runningChildren().length === 0 ? true : undefined), 30_000, 'no restic left running');

  process.env.SANAD_RESTIC = hangingRestic('backup');
  const asked = await api.post('/admin/backups', {});
  assert.equal(asked.status, 202, asked.text);
  const backup = await ended(api, num(asked.body, 'run_id'), 'the stalled backup to end');
  assert.equal(field(backup, 'status'), 'failed');
  assert.match(str(backup, 'error'), /^Nothing moved for 4 seconds at the step "upload:local"/);
  await waitFor(() => (runningChildren().length === 0 ? true : undefined), 30_000, 'no restic left running');
  assert.match((await api.get('/admin/alerts')).text, /"key":"backup\.failed"/, 'a stall is a failure, and says so');

  delete process.env.SANAD_RESTIC;
  const next = await t.appliance.ctx.backups.run('test');
  assert.equal(next.status, 'ok', JSON.stringify(next));
});
