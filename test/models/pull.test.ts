// `sanad models pull` against a local server speaking the hub's protocol (test/fixtures/hub-server.ts):
// every URI form, a cut connection resumed with Range, a corrupted byte refused, a disk too small
// refused before a byte is fetched, the same file asked twice, a gated model and its token.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { ModelList, type Model } from '../../src/contract/tasks.js';
import { prepareDataDir } from '../harness/data-dir.js';
import { runSanad } from '../harness/run-sanad.js';
import { mountSmallDisk } from '../harness/small-disk.js';
import { startTestHub, type TestHub } from '../fixtures/hub-server.js';
import { tinyRepo } from '../fixtures/hub-models.js';

const repo = tinyRepo();
const sha = (b: Buffer): string => createHash('sha256').update(b).digest('hex');
const fileOf = (name: string): Buffer => {
  const f = repo.files.find((x) => x.path === name);
  if (!f) throw new Error(name);
  return f.bytes;
};
const hubs: TestHub[] = [];
after(async () => {
  for (const h of hubs) await h.close();
});

async function hub(faults: Parameters<typeof startTestHub>[1] = {}): Promise<TestHub> {
  const h = await startTestHub([repo], faults);
  hubs.push(h);
  return h;
}

async function listed(dataDir: string): Promise<Model[]> {
  const r = await runSanad(['--data-dir', dataDir, '--json', 'models', 'list']);
  const body: unknown = JSON.parse(r.stdout);
  return ModelList.parse(body).data;
}

function pull(dataDir: string, h: TestHub, ...args: string[]): ReturnType<typeof runSanad> {
  return runSanad(['--data-dir', dataDir, 'models', 'pull', ...args], { env: { HF_ENDPOINT: h.endpoint, DBUS_SESSION_BUS_ADDRESS: '' } });
}

test('every URI form pulls, verifies and registers the file with where it came from', async () => {
  const h = await hub();
  const { dataDir } = await prepareDataDir();
  const byFile = await pull(dataDir, h, 'hf:sanad-test/tiny-GGUF/tiny.Q2_K.gguf');
  assert.equal(byFile.code, 0, byFile.stderr);
  assert.match(byFile.stderr, /tiny\.Q2_K\.gguf is 3\.1 MB; .* free on the disk/);
  assert.match(byFile.stderr, /It needs about .* of memory .* so it fits\./);
  assert.match(byFile.stderr, /checked against the sha256 the hub publishes/);
  const byQuant = await pull(dataDir, h, 'hf:sanad-test/tiny-GGUF:q4_k_m', '--id', 'tiny-q4');
  assert.equal(byQuant.code, 0, byQuant.stderr);
  // The most precise quant that fits this machine: Q8_0 (6 MB fits anywhere), said before starting.
  const byRepo = await pull(dataDir, h, 'hf:sanad-test/tiny-GGUF');
  assert.equal(byRepo.code, 0, byRepo.stderr);
  assert.match(byRepo.stderr, /offers 3 quantizations; Q8_0 is the most precise that fits this machine/);
  // A plain URL (its own data dir: the file is the Q4_K_M one, already registered above).
  const other = await prepareDataDir();
  const plain = await pull(other.dataDir, h, `${h.endpoint}files/tiny.Q4_K_M.gguf`, '--id', 'plain', '--sha256', sha(fileOf('tiny.Q4_K_M.gguf')));
  assert.equal(plain.code, 0, plain.stderr);
  assert.match(plain.stderr, /checked against the sha256 you gave/);
  const [plainModel] = (await listed(other.dataDir)).filter((m) => m.id === 'plain');
  assert.equal(plainModel?.sha256, sha(fileOf('tiny.Q4_K_M.gguf')));
  assert.equal(plainModel?.source?.uri, `${h.endpoint}files/tiny.Q4_K_M.gguf`);

  const models = await listed(dataDir);
  const want: Array<[string, string, string]> = [
    ['tiny.Q2_K', 'tiny.Q2_K.gguf', 'hf:sanad-test/tiny-GGUF/tiny.Q2_K.gguf'],
    ['tiny-q4', 'tiny.Q4_K_M.gguf', 'hf:sanad-test/tiny-GGUF/tiny.Q4_K_M.gguf'],
    ['tiny.Q8_0', 'tiny.Q8_0.gguf', 'hf:sanad-test/tiny-GGUF/tiny.Q8_0.gguf'],
  ];
  for (const [id, file, uri] of want) {
    const m = models.find((x) => x.id === id);
    assert.ok(m, `${id} registered`);
    assert.equal(m.sha256, sha(fileOf(file)), `${id}: the sha256 of the hub's file`);
    assert.equal(sha(readFileSync(m.path ?? '')), m.sha256, `${id}: the file on disk is that file`);
    assert.equal(m.source?.uri, uri);
    assert.equal(m.status, 'available');
    assert.ok((m.path ?? '').startsWith(join(dataDir, 'models')), "kept in the data dir's models folder");
  }
  assert.equal(models.find((x) => x.id === 'tiny-q4')?.source?.revision, h.commit, 'the commit the hub resolved');
  assert.deepEqual(readdirSync(join(dataDir, 'models', '.pulls')), [], 'no partial left');
  // The same file again: nothing downloaded, the registration named.
  const again = await pull(dataDir, h, 'hf:sanad-test/tiny-GGUF:Q2_K');
  assert.equal(again.code, 0, again.stderr);
  assert.match(again.stderr, /already registered as "tiny\.Q2_K"/);
});

test('a connection cut at 40% resumes with a Range request and ends verified', async () => {
  const h = await hub({ cutAt: 0.4 });
  const { dataDir } = await prepareDataDir();
  const r = await pull(dataDir, h, 'hf:sanad-test/tiny-GGUF/tiny.Q4_K_M.gguf');
  assert.equal(r.code, 0, r.stderr);
  assert.equal(h.cut(), true, 'the hub cut the connection');
  const size = fileOf('tiny.Q4_K_M.gguf').length;
  const cutAt = Math.floor(0.4 * size);
  const cdn = h.requests.filter((q) => q.path.startsWith('/cdn/') && q.range !== null);
  const startOf = (range: string | null): number => Number(/bytes=(\d+)-/.exec(range ?? '')?.[1]);
  // After the cut, the rest was asked for from the Range chunk (256 KiB) holding the cut: not from 0.
  const resumed = cdn.filter((q) => q.afterCut && startOf(q.range) > 0 && startOf(q.range) <= cutAt && cutAt - startOf(q.range) < 256 * 1024);
  assert.equal(resumed.length, 1, `one Range request picked up at the cut: ${cdn.map((q) => `${q.range}${q.afterCut ? '*' : ''}`).join(' ')}`);
  assert.ok(!cdn.some((q) => q.afterCut && startOf(q.range) === 0 && q.range?.endsWith(`-${size - 1}`)), 'the file was not started over');
  const [model] = (await listed(dataDir)).filter((m) => m.id === 'tiny.Q4_K_M');
  assert.equal(model?.sha256, sha(fileOf('tiny.Q4_K_M.gguf')));
  assert.equal(sha(readFileSync(model.path ?? '')), model.sha256);
});

test('a corrupted byte is refused: the file is deleted and nothing is registered', async () => {
  const h = await hub({ corruptAt: 3_000_000 });
  const { dataDir } = await prepareDataDir();
  const r = await pull(dataDir, h, 'hf:sanad-test/tiny-GGUF/tiny.Q4_K_M.gguf');
  assert.equal(r.code, 1);
  assert.match(r.stderr, /sha256 is [0-9a-f]{64}, not the [0-9a-f]{64} the hub publishes, so it was deleted and nothing was registered/);
  assert.deepEqual(
    (await listed(dataDir)).map((m) => m.id),
    ['tiny'],
  );
  const left = readdirSync(join(dataDir, 'models'), { recursive: true })
    .map(String)
    .filter((p) => p.endsWith('.gguf'));
  assert.deepEqual(left, [], 'no .gguf left in the models folder');
});

test('a disk too small is refused with the numbers before a byte of the model is fetched', async (t) => {
  const disk = mountSmallDisk(3);
  if (typeof disk === 'string') return t.skip(disk);
  const h = await hub();
  const { dataDir } = await prepareDataDir({}, join(disk.path, 'data'));
  const r = await pull(dataDir, h, 'hf:sanad-test/tiny-GGUF/tiny.Q8_0.gguf');
  assert.equal(r.code, 1);
  assert.match(
    r.stderr,
    /tiny\.Q8_0\.gguf is 6\.3 MB, but the disk holding .* has [\d.]+ [kM]B free and this needs [\d.]+ MB \(the file and room for the next backup\); free some space/,
  );
  assert.equal(h.requests.filter((q) => q.path.startsWith('/cdn/')).length, 0, 'nothing downloaded');
  assert.equal(existsSync(join(dataDir, 'models', 'tiny.Q8_0.gguf')), false);
  disk.unmount();
});

test('a gated model needs the token: refused without it, pulled with it, and the token never in argv or output', async () => {
  const token = 'hf_testtoken_0123456789';
  const h = await hub({ token });
  const { dataDir } = await prepareDataDir();
  const refused = await pull(dataDir, h, 'hf:sanad-test/tiny-GGUF:Q2_K');
  assert.equal(refused.code, 1);
  assert.match(refused.stderr, /needs a Hugging Face token .* `sanad models login`/);
  // Into the keychain (the test runs with its own Secret Service session).
  const login = await runSanad(['--data-dir', dataDir, 'models', 'login'], { stdin: `${token}\n` });
  assert.equal(login.code, 0, login.stderr);
  const ok = await runSanad(['--data-dir', dataDir, 'models', 'pull', 'hf:sanad-test/tiny-GGUF:Q2_K'], { env: { HF_ENDPOINT: h.endpoint } });
  assert.equal(ok.code, 0, ok.stderr);
  assert.ok(
    h.requests.some((q) => q.path.includes('/resolve/') && q.authorization),
    'the token went to the hub',
  );
  assert.ok(!h.requests.some((q) => q.path.startsWith('/cdn/') && q.authorization), 'never to the CDN it redirects to');
  for (const text of [ok.stdout, ok.stderr, login.stdout, login.stderr]) assert.ok(!text.includes(token), 'the token is not printed');
});

test('a typo in a URI gets one sentence naming the forms', async () => {
  const h = await hub();
  const { dataDir } = await prepareDataDir();
  const r = await pull(dataDir, h, 'hf:sanad-test');
  assert.equal(r.code, 1);
  assert.match(
    r.stderr,
    /"hf:sanad-test" is not a model address Sanad can pull .*; use hf:OWNER\/REPO\/FILE\.gguf, hf:OWNER\/REPO:Q4_K_M, hf:OWNER\/REPO or https:/,
  );
  const missing = await pull(dataDir, h, 'hf:sanad-test/no-such-GGUF:Q4_K_M');
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /The hub has no repository sanad-test\/no-such-GGUF; check the name\./);
  const noQuant = await pull(dataDir, h, 'hf:sanad-test/tiny-GGUF:Q5_K_M');
  assert.match(noQuant.stderr, /has no Q5_K_M file; it has Q8_0, Q4_K_M, Q2_K/);
});

test('plain http to a host on the network is refused: for HF_ENDPOINT (the token would travel in clear) and for a pull URL', async () => {
  const { dataDir } = await prepareDataDir();
  const before = (await listed(dataDir)).map((m) => m.id);
  const endpoint = await runSanad(['--data-dir', dataDir, 'models', 'pull', 'hf:sanad-test/tiny-GGUF:Q2_K'], {
    env: { HF_ENDPOINT: 'http://hub.example.lan/', DBUS_SESSION_BUS_ADDRESS: '' },
  });
  assert.equal(endpoint.code, 1);
  assert.match(endpoint.stderr, /HF_ENDPOINT is "http:\/\/hub\.example\.lan\/", which is not an https:\/\/ URL \(http:\/\/ only for localhost/);
  const url = await runSanad(['--data-dir', dataDir, 'models', 'pull', 'http://models.example.lan/tiny.gguf']);
  assert.equal(url.code, 1);
  assert.match(url.stderr, /plain http:\/\/ is allowed only for localhost; use https:\/\//);
  assert.deepEqual(
    (await listed(dataDir)).map((m) => m.id),
    before,
    'nothing registered',
  );
});
