// Pulls as the running service's jobs: SIGKILL of `sanad serve` mid-download, then a restart that
// resumes from the partial file and ends verified; a cancel that leaves no file; the same file
// asked for twice is one pull; and `sanad models pull` beside a running service follows its job.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { Pull } from '../../src/contract/pulls.js';
import { Run, Runs } from '../../src/contract/runs.js';
import { ModelList } from '../../src/contract/tasks.js';
import type { Api } from '../harness/api.js';
import { prepareDataDir } from '../harness/data-dir.js';
import { runSanad } from '../harness/run-sanad.js';
import { startServiceProcess } from '../harness/service-process.js';
import { startTestHub, type TestHub } from '../fixtures/hub-server.js';
import { tinyRepo } from '../fixtures/hub-models.js';

const repo = tinyRepo();
const q4 = repo.files.find((f) => f.path === 'tiny.Q4_K_M.gguf')?.bytes ?? Buffer.alloc(0);
const sha = (b: Buffer): string => createHash('sha256').update(b).digest('hex');
const hubs: TestHub[] = [];
after(async () => {
  for (const h of hubs) await h.close();
});

async function pullOf(api: Api, id: string): Promise<Pull> {
  const r = await api.get(`/admin/models/pulls/${id}`);
  assert.equal(r.status, 200, r.text);
  return Pull.parse(r.body);
}

async function until<T>(what: string, read: () => Promise<T>, ok: (v: T) => boolean, tries = 600): Promise<T> {
  let last: T | undefined;
  for (let i = 0; i < tries; i++) {
    last = await read();
    if (ok(last)) return last;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${what} never happened; last: ${JSON.stringify(last)}`);
}

test('sanad serve killed mid-pull: the next start resumes the download from its partial file and ends verified', async () => {
  // ~120 kB/s per stream: the 4 MiB file takes several seconds, so the kill lands mid-way.
  const hub = await startTestHub([repo], { rate: 120_000 });
  hubs.push(hub);
  const { dataDir, adminToken } = await prepareDataDir();
  const env = { HF_ENDPOINT: hub.endpoint };
  const first = await startServiceProcess(dataDir, adminToken, env);
  const started = await first.api.post('/admin/models/pulls', { uri: 'hf:sanad-test/tiny-GGUF:Q4_K_M' });
  assert.equal(started.status, 202, started.text);
  const id = Pull.parse(started.body).id;
  await until(
    'a third downloaded',
    () => pullOf(first.api, id),
    (p) => (p.progress?.bytes ?? 0) > q4.length / 3,
  );
  // The pull is a run like a backup: open, with its bytes as its progress.
  const open = Runs.parse((await first.api.get('/admin/runs?open=true&kind=pull')).body).data;
  assert.equal(open.length, 1, JSON.stringify(open));
  const runId = open[0]?.id ?? 0;
  await until(
    'its run carries the bytes',
    async () => Run.parse((await first.api.get(`/admin/runs/${runId}`)).body),
    (r) => r.progress !== null && 'bytes' in r.progress && r.progress.bytes > 0,
  );
  await first.kill();
  const partial = readdirSync(join(dataDir, 'models', '.pulls'), { recursive: true }).map(String);
  assert.ok(
    partial.some((p) => p.endsWith('.ipull')),
    `the partial file is kept: ${partial.join(', ')}`,
  );
  const seenBefore = hub.requests.length;

  const second = await startServiceProcess(dataDir, adminToken, env);
  try {
    const done = await until(
      'the resumed pull ends',
      () => pullOf(second.api, id),
      (p) => p.status !== 'running' && p.status !== 'waiting',
    );
    assert.equal(done.status, 'done', done.error ?? '');
    // The start went on under the same run, not a new one, and ended it ok (no "interrupted").
    const pullRuns = Runs.parse((await second.api.get('/admin/runs?kind=pull')).body).data;
    assert.deepEqual(
      pullRuns.map((r) => [r.id, r.status, r.progress]),
      [[runId, 'ok', null]],
    );
    // The restart fetched the rest with Range, not the whole file again.
    const chunks = hub.requests.slice(seenBefore).filter((q) => q.path.startsWith('/cdn/') && q.range !== null);
    const fetched = chunks.reduce((n, q) => n + q.sent, 0);
    assert.ok(
      chunks.length > 0 && fetched < q4.length * 0.8,
      `after the restart ${fetched} of ${q4.length} bytes came in ${chunks.map((q) => `${q.range}:${q.sent}`).join(' ')}`,
    );
    const models = ModelList.parse((await second.api.get('/v1/models')).body).data;
    const model = models.find((m) => m.id === 'tiny.Q4_K_M');
    assert.equal(model?.sha256, sha(q4));
    assert.equal(sha(readFileSync(model?.path ?? '')), sha(q4));
    assert.equal(model?.source?.uri, 'hf:sanad-test/tiny-GGUF/tiny.Q4_K_M.gguf');
  } finally {
    await second.stop();
  }
});

test("cancel leaves no file; the same file asked twice is one pull; the CLI follows the service's pull", async () => {
  const hub = await startTestHub([repo], { rate: 60_000 });
  hubs.push(hub);
  const { dataDir, adminToken } = await prepareDataDir();
  const service = await startServiceProcess(dataDir, adminToken, { HF_ENDPOINT: hub.endpoint });
  try {
    const a = await service.api.post('/admin/models/pulls', { uri: 'hf:sanad-test/tiny-GGUF/tiny.Q4_K_M.gguf' });
    const b = await service.api.post('/admin/models/pulls', { uri: 'hf:sanad-test/tiny-GGUF:Q4_K_M' });
    assert.equal(a.status, 202);
    assert.equal(b.status, 200, 'the second joins the first');
    const id = Pull.parse(a.body).id;
    assert.equal(Pull.parse(b.body).id, id, 'one pull');
    await until(
      'some bytes arrived',
      () => pullOf(service.api, id),
      (p) => (p.progress?.bytes ?? 0) > 0,
    );
    const cancelled = await service.api.post(`/admin/models/pulls/${id}/cancel`);
    assert.equal(cancelled.status, 200);
    const end = await until(
      'the cancel settles',
      () => pullOf(service.api, id),
      (p) => p.status === 'cancelled',
    );
    assert.equal(end.status, 'cancelled');
    const runs = Runs.parse((await service.api.get('/admin/runs?kind=pull')).body).data;
    assert.deepEqual(
      runs.map((r) => r.status),
      ['cancelled'],
      'its run ended cancelled',
    );
    assert.deepEqual(readdirSync(join(dataDir, 'models', '.pulls')), [], 'the partial is deleted');
    assert.equal(existsSync(join(dataDir, 'models', 'tiny.Q4_K_M.gguf')), false);
    assert.ok(!ModelList.parse((await service.api.get('/v1/models')).body).data.some((m) => m.id === 'tiny.Q4_K_M'), 'nothing registered');

    // Beside the service, the CLI asks it and follows the job to its end, with progress on stderr.
    hub.faults.rate = 400_000;
    const cli = await runSanad(['--data-dir', dataDir, 'models', 'pull', 'hf:sanad-test/tiny-GGUF:Q2_K']);
    assert.equal(cli.code, 0, cli.stderr);
    assert.match(cli.stderr, /tiny\.Q2_K\.gguf: \d+% · .* of 3\.1 MB · .*\/s/);
    assert.match(cli.stdout, /Registered tiny\.Q2_K from hf:sanad-test\/tiny-GGUF\/tiny\.Q2_K\.gguf \(sha256 [0-9a-f]{64}, verified\)/);
  } finally {
    await service.stop();
  }
});
