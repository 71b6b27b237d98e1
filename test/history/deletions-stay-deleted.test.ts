// Deletions stay deleted (the Kazma lesson): a response deleted after a backup is removed again
// from every older generation a restore brings back, on this machine (the live journal) and on a
// new one (no live journal; the newest generation in the repository carries it). Real restic,
// a real REST repository, the real CLI.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { backupDepsFor } from '../../src/backup/backup-deps.js';
import { addRepository, listRepositories, type Repository } from '../../src/repository/repositories.js';
import { toResticRepo } from '../../src/repository/restic-target.js';
import { compactJournal } from '../../src/jobs/journal-retention.js';
import { silentLogger } from '../../src/log/logger.js';
import { systemClock } from '../../src/clock.js';
import { parseJournal } from '../../src/store/deletion-journal.js';
import { str } from '../harness/api.js';
import { startTestAppliance, type TestAppliance } from '../harness/appliance.js';
import { tempDir } from '../harness/data-dir.js';
import { freePort, RestServer } from '../backup/run/rest-server.js';
import { backupNow, check, newMachineWithOffsite, restoreCli } from '../restore/kit.js';
import { journalPath, storePath } from '../../src/files/data-dir-layout.js';

let t: TestAppliance | null = null;
let rest: RestServer | null = null;
after(async () => {
  await rest?.stop();
  await t?.close();
});

function responsesIn(file: string): { responses: string[]; tasks: number; events: number } {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return {
      responses: db
        .prepare<[], { id: string }>('SELECT id FROM responses ORDER BY id')
        .all()
        .map((r) => r.id),
      tasks: db.prepare<[], { n: number }>('SELECT COUNT(*) AS n FROM tasks').get()?.n ?? -1,
      events: db.prepare<[], { n: number }>('SELECT COUNT(*) AS n FROM task_events').get()?.n ?? -1,
    };
  } finally {
    db.close();
  }
}

test('a response deleted after a backup stays deleted when an older generation is restored, here and on a new machine', async () => {
  t = await startTestAppliance();
  rest = new RestServer(tempDir(), await freePort());
  await rest.start();
  addRepository(t.appliance.ctx.writer, t.appliance.ctx.secrets.vault, { name: 'offsite', type: 'rest', location: rest.url }, systemClock);
  const kept = await t.api.post('/v1/responses', { model: 'tiny', input: 'keep me', max_output_tokens: 4 });
  const gone = await t.api.post('/v1/responses', { model: 'tiny', input: 'forget me', max_output_tokens: 4 });
  assert.equal(gone.status, 200, gone.text);
  const [keptId, goneId] = [str(kept.body, 'id'), str(gone.body, 'id')];
  const older = await backupNow(t.dataDir);

  const del = await t.api.request('DELETE', `/v1/responses/${goneId}`);
  assert.equal(del.status, 200, del.text);
  const live = parseJournal(readFileSync(journalPath(t.dataDir), 'utf8'));
  assert.deepEqual(
    live.map((d) => [d.id, d.why]),
    [[goneId, 'deleted']],
    'the journal holds the id, nothing else',
  );
  assert.doesNotMatch(readFileSync(journalPath(t.dataDir), 'utf8'), /forget me/);
  await backupNow(t.dataDir);

  // This machine: the older generation had it; the restore removes it again before anything opens it.
  const here = join(tempDir('sanad-restore-'), 'here');
  const out = await restoreCli(t.dataDir, ['--target', here, '--generation', String(older)]);
  assert.equal(out.ran.code, 0, JSON.stringify(out.checks, null, 1));
  assert.match(check(out, 'deletions:reapplied').detail, /^1 deletion applied again \(the journal holds 1: this data dir's 1, the newest generation's 1\)/);
  const restored = responsesIn(storePath(here));
  assert.deepEqual(restored.responses, [keptId].sort());
  assert.equal(restored.tasks, 1, 'its task went with it');
  assert.deepEqual(
    parseJournal(readFileSync(journalPath(here), 'utf8')).map((d) => d.id),
    [goneId],
    'the restored dir keeps honouring it',
  );

  // A new machine: its own (empty) journal, the offsite repository, the kit's passphrase.
  const kitPassphrase = t.appliance.ctx.secrets.master.resticPassphrase;
  const machine = (await newMachineWithOffsite(rest.url)).dataDir;
  const there = join(tempDir('sanad-restore-'), 'there');
  const far = await restoreCli(machine, ['--target', there, '--repo', 'offsite', '--generation', String(older), '--passphrase-stdin'], `${kitPassphrase}\n`);
  assert.equal(far.ran.code, 0, JSON.stringify(far.checks, null, 1));
  assert.match(check(far, 'deletions:reapplied').detail, /^1 deletion applied again \(the journal holds 1: this data dir's 0, the newest generation's 1\)/);
  assert.deepEqual(responsesIn(storePath(there)).responses, [keptId]);
});

test('the journal keeps what a generation anywhere could bring back, and an id the live store still has', async () => {
  assert.ok(t && rest, 'the first test ran');
  const ctx = t.appliance.ctx;
  const deps = await backupDepsFor({ db: ctx.writer, dataDir: ctx.dataDir, store: ctx.secrets.store, clock: systemClock, logger: silentLogger });
  const still = await t.api.post('/v1/responses', { model: 'tiny', input: 'journalled but not deleted', max_output_tokens: 2 });
  const stillId = str(still.body, 'id');
  // Long before any generation: one whose delete committed, one whose delete never did (a crash).
  ctx.deletions.record([
    { kind: 'response', id: 'resp_ancient', at: 1000, why: 'retention' },
    { kind: 'response', id: stillId, at: 1000, why: 'deleted' },
  ]);
  const before = ctx.deletions.read().map((d) => d.id);
  const compact = (repositories: Repository[]): Promise<number | null> =>
    compactJournal({
      restic: deps.restic,
      repositories,
      resticRepo: (r) => toResticRepo(r, deps.vault, deps.passphrase),
      journal: ctx.deletions,
      live: ctx.db,
      logger: silentLogger,
    });
  // A repository that cannot be listed might hold older generations: nothing goes.
  const dead: Repository = {
    name: 'dead',
    type: 'rest',
    location: 'rest:http://127.0.0.1:9/',
    options: {},
    enabled: true,
    created_at: 0,
    last_ok_at: null,
    last_error: null,
    last_error_at: null,
  };
  assert.equal(await compact([...listRepositories(ctx.writer), dead]), null);
  assert.deepEqual(
    ctx.deletions.read().map((d) => d.id),
    before,
  );
  assert.equal(await compact(listRepositories(ctx.writer)), 1);
  const after = ctx.deletions.read().map((d) => d.id);
  assert.ok(!after.includes('resp_ancient'), 'older than every generation in every repository: gone');
  assert.ok(after.includes(stillId), 'the live store still has it: its deletion intent stays');
  assert.ok(after.length === before.length - 1, 'the newer entries stay');
});
