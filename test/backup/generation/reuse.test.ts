// A generation keeps the last one's store copy only when nothing but Sanad's records of its own
// backups was written since, and only when that copy's bytes still hash to its manifest's sha256.
// Every other case copies afresh, and the new copy holds the change.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { openSync, readSync, statSync, writeSync, closeSync } from 'node:fs';
import { join } from 'node:path';
import { ManualClock } from '../../../src/clock.js';
import { makeGeneration, type GenerationResult } from '../../../src/backup/generation/make-generation.js';
import { recordCopy } from '../../../src/repository/backup-runs.js';
import { beginRun, finishRun } from '../../harness/run-rows.js';
import { raiseAlert } from '../../../src/store/alerts.js';
import { say } from '../../../src/contract/said/index.js';
import { writeConfigValue } from '../../../src/store/settings.js';
import { openStore, type Db } from '../../../src/store/open.js';
import { prepareDataDir } from '../../harness/data-dir.js';
import { field, num, str, waitFor, noOpenRun } from '../../harness/api.js';
import { startTestAppliance } from '../../harness/appliance.js';
import { openCopy, sha256Of } from './kit.js';
import { STORE_FILE, storePath } from '../../../src/files/data-dir-layout.js';

async function setUp(t: TestContext): Promise<{ db: Db; dataDir: string; make: (key?: Buffer) => Promise<GenerationResult> }> {
  const prepared = await prepareDataDir();
  const db = openStore(storePath(prepared.dataDir));
  t.after(() => db.close());
  const clock = new ManualClock(1_700_000_000_000);
  const vaultKey = randomBytes(32);
  const make = (key: Buffer = vaultKey): Promise<GenerationResult> =>
    makeGeneration({ dataDir: prepared.dataDir, db, vaultKey: key, clock, appVersion: 'test' });
  return { db, dataDir: prepared.dataDir, make };
}

const storeOf = (g: GenerationResult): string => join(g.dir, STORE_FILE);
const manifestSha = (g: GenerationResult): string | undefined => g.manifest.items.find((i) => i.kind === 'sqlite')?.sha256;
const sameFile = (a: GenerationResult, b: GenerationResult): boolean => statSync(storeOf(a)).ino === statSync(storeOf(b)).ino;

test('a backup of an unchanged store keeps the last copy, though the backup itself wrote its records meanwhile', async (t) => {
  const { db, make } = await setUp(t);
  writeConfigValue(db, 'test.note', 'before', 1);
  const first = await make();
  // What a backup run writes around its generation: its run, a copy, an alert, its end.
  const run = beginRun(db, 'backup', 'test', 2000);
  recordCopy(db, { run_id: run.id, repository: 'local', ok: 1, snapshot_id: 'abc', error: null, finished_at: 3, summary: null });
  raiseAlert(db, new ManualClock(3000), 'test.alert', 'warning', say('alert.backup_failed', { error: 'x' }));
  finishRun(db, run, 'ok', 4000);
  const second = await make();
  assert.ok(sameFile(first, second), "the second generation links to the first one's copy");
  assert.equal(manifestSha(second), manifestSha(first));
  assert.equal(manifestSha(second), sha256Of(storeOf(second)), 'the manifest describes the file it names');
  assert.notEqual(second.epoch, first.epoch, 'it is still a generation of its own');
});

test('a content write, a write by another connection, a new vault key: each copies afresh and the copy holds the change', async (t) => {
  const { db, dataDir, make } = await setUp(t);
  const first = await make();

  writeConfigValue(db, 'test.note', 'written by the service', 5);
  const afterWrite = await make();
  assert.ok(!sameFile(first, afterWrite), 'a content write makes a new copy');
  const seen = (g: GenerationResult, key: string): unknown => {
    const copy = openCopy(storeOf(g));
    try {
      return copy.prepare('SELECT value FROM service_config WHERE key = ?').pluck().get(key);
    } finally {
      copy.close();
    }
  };
  assert.equal(seen(afterWrite, 'test.note'), 'written by the service');

  const other = openStore(storePath(dataDir));
  writeConfigValue(other, 'test.other', 'written by another connection', 6);
  other.close();
  const afterOther = await make();
  assert.ok(!sameFile(afterWrite, afterOther), 'a commit by another connection makes a new copy');
  assert.equal(seen(afterOther, 'test.other'), 'written by another connection');

  const newKey = await make(randomBytes(32));
  assert.ok(!sameFile(afterOther, newKey), 'a generation checked with another vault key is copied afresh');
  const again = await make();
  assert.ok(!sameFile(newKey, again), 'and so is the next one with the old key again');
});

test('a last copy damaged in staging is not kept: the new generation copies afresh and its manifest matches its file', async (t) => {
  const { make } = await setUp(t);
  const first = await make();
  const path = storeOf(first);
  // One byte flipped in the middle of the kept copy (a bad sector, a stray write).
  const fd = openSync(path, 'r+');
  const at = Math.floor(statSync(path).size / 2);
  const byte = Buffer.alloc(1);
  readSync(fd, byte, 0, 1, at);
  byte[0] = (byte[0] ?? 0) ^ 0xff;
  writeSync(fd, byte, 0, 1, at);
  closeSync(fd);
  const second = await make();
  assert.ok(!sameFile(first, second));
  assert.equal(manifestSha(second), sha256Of(storeOf(second)));
  assert.notEqual(sha256Of(storeOf(first)), manifestSha(first), 'the first copy really was damaged');
});

test('through the service: a second backup with nothing new keeps the copy; a new response makes a new one that holds it', async (t) => {
  const app = await startTestAppliance();
  t.after(() => app.close());
  const { api } = app;
  const backUp = async (): Promise<{ generation: number; ino: number }> => {
    const count = (body: unknown): number => {
      const d = field(body, 'data');
      return Array.isArray(d) ? d.length : -1;
    };
    const before = count((await api.get('/admin/backups')).body);
    assert.equal(field((await api.post('/admin/backups')).body, 'started'), true);
    const runs = await waitFor(
      async () => {
        const body = (await api.get('/admin/backups')).body;
        return count(body) > before && field(body, 'data', 0, 'status') !== 'running' && (await noOpenRun(api, 'backup')) ? body : undefined;
      },
      120_000,
      'the backup to end',
    );
    assert.equal(field(runs, 'data', 0, 'status'), 'ok');
    const generation = num(runs, 'data', 0, 'generation');
    return { generation, ino: statSync(join(app.dataDir, 'backups', 'staging', String(generation), STORE_FILE)).ino };
  };
  const first = await backUp();
  const second = await backUp();
  assert.notEqual(second.generation, first.generation);
  assert.equal(second.ino, first.ino, "nothing but the service's own backup records changed, so the copy was kept");

  const created = await api.post('/v1/responses', { model: 'tiny', input: 'Hello', max_output_tokens: 4 });
  assert.equal(created.status, 200);
  const third = await backUp();
  assert.notEqual(third.ino, second.ino, 'a new response is new content');
  const copy = openCopy(join(app.dataDir, 'backups', 'staging', String(third.generation), STORE_FILE));
  try {
    assert.equal(copy.prepare('SELECT count(*) FROM responses WHERE id = ?').pluck().get(str(created.body, 'id')), 1, 'the new copy holds the new response');
  } finally {
    copy.close();
  }
});
