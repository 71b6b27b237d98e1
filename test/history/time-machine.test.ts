// Inside generations, with real restic, the real CLI and a serving appliance: `generations diff`
// lists exactly what the test changed between two backups; `generations show` beside the service
// leaves every repository file as it was and its scratch folder goes; a response brought back
// from a generation is in the live data with all its events (gap-free), replays over SSE, and a
// second bring-back changes nothing. A generation held back with the engine's hold (a real
// generation, paused) gives a response that changed between the two backups.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { z } from 'zod/v3';
import { join } from 'node:path';
import { startAppliance, type Appliance } from '../../src/appliance/appliance.js';
import { engineOptions } from '../../src/appliance/engine-options.js';
import { BringBackEntry, BringBackResult, GenerationDiff, GenerationResponsePage, GenerationSummary } from '../../src/contract/history.js';
import { LlamaEngine } from '../../src/engine/llama-engine.js';
import { silentLogger } from '../../src/log/logger.js';
import { openStore } from '../../src/store/open.js';
import { readSettings } from '../../src/store/settings.js';
import { tinyModelPath } from '../fixtures/tiny-model.js';
import { Api, field, num, str, waitFor } from '../harness/api.js';
import { prepareDataDir } from '../harness/data-dir.js';
import { runSanad } from '../harness/run-sanad.js';
import { readSse } from '../harness/sse.js';
import { fingerprint } from '../drill/kit.js';
import { FaultEngine } from '../faults/fault-engine.js';
import { backupNow } from '../restore/kit.js';
import { defaultLocalRepository, journalPath, storePath } from '../../src/files/data-dir-layout.js';

const EventPage = z.object({ data: z.array(z.object({ sequence_number: z.number(), type: z.string() }).passthrough()) });

let app: Appliance | null = null;
let api: Api;
let dataDir: string;
let engine: FaultEngine;

before(async () => {
  process.env.SANAD_THREADS ??= '1';
  process.env.SANAD_GPU ??= 'off';
  const prepared = await prepareDataDir({ max_concurrent_generations: 2 });
  dataDir = prepared.dataDir;
  const db = openStore(storePath(dataDir));
  const settings = readSettings(db);
  db.close();
  engine = new FaultEngine(new LlamaEngine(engineOptions(settings)));
  app = await startAppliance({ dataDir, port: 0, logger: silentLogger, engine: () => engine });
  api = new Api(app.url, prepared.adminToken);
});

after(async () => {
  await app?.close();
});

async function sanadJson(args: string[]): Promise<unknown> {
  const ran = await runSanad([...args, '--data-dir', dataDir, '--json']);
  assert.equal(ran.code, 0, `${args.join(' ')}: ${ran.stderr}`);
  return JSON.parse(ran.stdout);
}

async function answer(input: string): Promise<string> {
  const r = await api.post('/v1/responses', { model: 'tiny', input, max_output_tokens: 6 });
  assert.equal(r.status, 200, r.text);
  return str(r.body, 'id');
}

test('diff lists exactly what changed between two backups; show beside the service writes nothing to the repository', async () => {
  const kept = await answer('kept');
  const removed = await answer('removed later');
  let release = (): void => undefined;
  engine.hold('HOLD', new Promise<void>((r) => (release = r)));
  const held = await api.post('/v1/responses', { model: 'tiny', input: 'HOLD this one', max_output_tokens: 6, background: true });
  assert.equal(held.status, 202, held.text);
  const heldId = str(held.body, 'id');
  await waitFor(async () => str((await api.get(`/v1/responses/${heldId}`)).body, 'status') === 'in_progress', 20_000, 'the held response running');
  const doomed = await api.post('/admin/clients', { name: 'doomed', scopes: ['tasks:read'] });
  const doomedId = str(doomed.body, 'client_id');
  const first = await backupNow(dataDir);

  // The changes between the two backups.
  assert.equal((await api.delete(`/v1/responses/${removed}`)).status, 200);
  const added = await answer('added later');
  release();
  await waitFor(async () => str((await api.get(`/v1/responses/${heldId}`)).body, 'status') !== 'in_progress', 20_000, 'the held response done');
  assert.equal((await api.post(`/admin/clients/${doomedId}/revoke`)).status, 200);
  const fresh = await api.post('/admin/clients', { name: 'fresh', scopes: ['tasks:read'] });
  const freshId = str(fresh.body, 'client_id');
  assert.equal((await api.delete('/admin/models/tiny')).status, 200);
  const readded = await api.post('/admin/models', { path: await tinyModelPath(2), id: 'tiny' });
  assert.equal(readded.status, 201, readded.text);
  app?.ctx.updateSettings({ retention_days: 12 });
  const second = await backupNow(dataDir);

  const repo = defaultLocalRepository(dataDir);
  const before = fingerprint(repo);
  const d = GenerationDiff.parse(await sanadJson(['generations', 'diff', String(first), String(second)]));
  assert.deepEqual(d.responses, { added: [added], removed: [removed], changed: [heldId] });
  assert.ok(![...d.responses.added, ...d.responses.removed, ...d.responses.changed].includes(kept), 'an untouched response is in no list');
  assert.equal(d.tasks.added.length, 1);
  assert.equal(d.tasks.removed.length, 1);
  assert.equal(d.tasks.changed.length, 1);
  assert.deepEqual(d.clients, { added: [freshId], revoked: [doomedId], removed: [] });
  assert.deepEqual(d.models, { added: [], removed: [], changed: ['tiny'] });
  assert.deepEqual(
    d.settings.changed.map((c) => [c.key, c.to]),
    [['retention_days', 12]],
  );
  // Each item by the name a person knows it by, read from the store that holds it.
  assert.deepEqual([d.names[added], d.names[removed], d.names[heldId]], ['added later', 'removed later', 'HOLD this one']);
  assert.deepEqual([d.names[freshId], d.names[doomedId]], ['fresh', 'doomed']);
  assert.deepEqual([...d.tasks.added, ...d.tasks.removed].map((id) => d.names[id]).sort(), ['added later', 'removed later']);
  assert.equal(d.from, first);
  assert.equal(d.to, second);

  // To the live data (the default second side): nothing changed since the second backup but the
  // temporary admin clients the CLI made, which no backup holds and the diff does not show.
  const live = GenerationDiff.parse(await sanadJson(['generations', 'diff', String(second)]));
  assert.deepEqual([live.to, live.responses, live.models.changed], ['live', { added: [], removed: [], changed: [] }, []]);

  const shown = await sanadJson(['generations', 'show', String(first), '--search', 'removed']);
  const summary = GenerationSummary.parse(shown);
  assert.equal(summary.counts.responses, 3);
  assert.equal(summary.counts.clients_revoked, 0);
  const page = GenerationResponsePage.parse(field(shown, 'responses'));
  assert.equal(page.total, 1, 'the search finds the one response that says "removed"');
  assert.deepEqual(
    page.data.map((r) => [r.id, r.live, r.input_preview]),
    [[removed, 'deleted', 'removed later']],
  );
  assert.deepEqual(fingerprint(repo), before, 'diff and show wrote nothing to the repository (files, sizes, mtimes, modes)');

  // A typo gets one sentence and exit 1 or 2, not a stack.
  const missing = await runSanad(['generations', 'show', '12345', '--data-dir', dataDir]);
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /Generation 12345 is not in the repository "local"/);
});

test('a response brought back into the serving data dir has every event, replays over SSE, and a second run skips it', async () => {
  const id = await answer('bring me back');
  const taskId = str((await api.get(`/v1/responses/${id}`)).body, 'task_id');
  const original = EventPage.parse((await api.get(`/v1/tasks/${taskId}/events?limit=1000`)).body).data;
  const generation = await backupNow(dataDir);
  assert.equal((await api.delete(`/v1/responses/${id}`)).status, 200);

  const refused = BringBackResult.parse(await sanadJson(['restore', '--generation', String(generation), '--response', id]));
  assert.deepEqual([refused.brought_back, refused.skipped], [[], [{ id, reason: 'deleted' }]], 'a deleted response stays deleted unless asked');

  const back = BringBackResult.parse(await sanadJson(['restore', '--generation', String(generation), '--response', id, '--undelete']));
  assert.deepEqual(back.brought_back, [id]);
  const events = await api.get(`/v1/tasks/${taskId}/events?limit=1000`);
  assert.equal(events.status, 200, events.text);
  const now = EventPage.parse(events.body).data;
  assert.deepEqual(now, original, 'every event back, as it was');
  assert.deepEqual(
    now.map((e) => e.sequence_number),
    now.map((_, i) => i + 1),
    'gap-free from 1',
  );
  const sse = await readSse(`${api.url}/v1/responses/${id}?stream=true&starting_after=0`, {
    headers: { authorization: `Bearer ${api.token ?? ''}`, 'LMSP-Events': 'all' },
  });
  assert.equal(sse.status, 200);
  assert.equal(sse.frames.length, original.length, 'the SSE replay sends every event and closes');
  assert.equal(sse.frames.at(-1)?.event, 'response.completed');
  assert.doesNotMatch(readFileSync(journalPath(dataDir), 'utf8'), new RegExp(id), 'the undelete took it out of the journal');

  const again = BringBackResult.parse(await sanadJson(['restore', '--generation', String(generation), '--response', id]));
  assert.deepEqual([again.brought_back, again.skipped], [[], [{ id, reason: 'exists' }]]);
  const audit = await api.get('/admin/bring-backs');
  const rows = z.object({ data: z.array(BringBackEntry) }).parse(audit.body).data;
  assert.deepEqual(
    rows.filter((r) => r.response_id === id).map((r) => [r.generation, r.undeleted]),
    [[generation, true]],
    'one audit row: the second run changed nothing',
  );
  assert.equal(num((await api.get(`/v1/tasks/${taskId}`)).body, 'last_sequence_number'), original.length);
});

test('without a service the CLI reads the generation itself, under the lock, and its scratch folder goes', async () => {
  const generation = await backupNow(dataDir);
  await app?.close();
  app = null;
  const history = join(dataDir, 'history');
  assert.deepEqual(existsSync(history) ? readdirSync(history) : [], [], 'the service removed its scratch copies when it stopped');
  const repo = defaultLocalRepository(dataDir);
  const before = fingerprint(repo);
  const shown = GenerationSummary.parse(await sanadJson(['generations', 'show', String(generation)]));
  assert.equal(shown.generation, generation);
  assert.ok(shown.counts.events > 0);
  assert.deepEqual(readdirSync(history), [], 'the CLI removed its scratch folder');
  assert.deepEqual(fingerprint(repo), before, 'the repository is as it was');
});
