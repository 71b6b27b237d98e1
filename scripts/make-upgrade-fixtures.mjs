#!/usr/bin/env node
// `node scripts/make-upgrade-fixtures.mjs [name…]`: the upgrade fixtures of test/upgrade/, made by
// really running the Sanad of earlier commits of this repository. For each version below: the commit
// is checked out into a temporary worktree and built; its own CLI and `sanad serve` make a data dir
// (an admin client, the tiny model, settings, responses in the foreground and the background, a
// continuation, a conversation where that version has them, a response deleted on purpose) and two
// generations in its local restic repository; what the fixture holds is written to fixture.json and
// the whole is stored, small, as test/fixtures/upgrade/<name>.tar.gz.
//
// Run it after `npm run build` (the tiny model is written by this checkout's own writer), on a
// machine with restic. The fixtures live at one fixed path while they are made and while they are
// tested, /tmp/sanad-upgrade-fixture/<name>, because a data dir records absolute paths (the model's
// file, the local repository): the test unpacks each one exactly where it was made. Their secrets
// (the restic passphrase and vault key, in a secrets file) are throwaway values made for the fixture.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { join } from 'node:path';
import Database from 'better-sqlite3';

const ROOT = new URL('..', import.meta.url).pathname;
export const FIXTURE_ROOT = '/tmp/sanad-upgrade-fixture';
const BUILD_ROOT = '/tmp/sanad-upgrade-build';

// The last commit before each of these store changes; the store version each one writes.
const VERSIONS = [
  { name: 'v12', commit: 'c065b1c', what: 'the last Sanad before conversations (store version 12)' },
  { name: 'v16', commit: 'f15fb53', what: 'the last Sanad before model sources and hub pulls (store version 16)' },
  { name: 'v20', commit: 'e8e7590', what: 'the last Sanad before the one record of runs (store version 20)' },
];

function run(cmd, args, options = {}) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, ...options });
  if (r.status !== 0 && !options.allowFail) throw new Error(`${cmd} ${args.join(' ')} failed (${r.status}): ${r.stderr}${r.stdout}`);
  return r;
}

function freePort() {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

async function waitFor(what, fn, ms = 60_000) {
  const until = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await sleep(200);
  }
}

function worktree(version) {
  const dir = join(BUILD_ROOT, version.name);
  run('git', ['worktree', 'remove', '--force', dir], { cwd: ROOT, allowFail: true });
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(BUILD_ROOT, { recursive: true });
  run('git', ['worktree', 'add', '--detach', dir, version.commit], { cwd: ROOT });
  // The same runtime packages: this checkout's serve it; otherwise its own, from the registry, with
  // the native ones built for this Node.
  const runtime = (root) => JSON.stringify(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).dependencies);
  if (runtime(dir) === runtime(ROOT)) {
    symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  } else {
    run('npm', ['ci', '--no-audit', '--no-fund', '--loglevel', 'error', '--ignore-scripts'], { cwd: dir, stdio: 'inherit' });
    run('npm', ['rebuild', 'better-sqlite3', 'node-llama-cpp', 'keytar', '--loglevel', 'error'], { cwd: dir, stdio: 'inherit' });
    // A native package of the same version as this checkout's: its build, known to load in this Node.
    for (const native of ['better-sqlite3']) {
      const version = (root) => JSON.parse(readFileSync(join(root, 'node_modules', native, 'package.json'), 'utf8')).version;
      if (version(dir) !== version(ROOT)) continue;
      rmSync(join(dir, 'node_modules', native), { recursive: true, force: true });
      symlinkSync(join(ROOT, 'node_modules', native), join(dir, 'node_modules', native));
    }
  }
  run(join(dir, 'node_modules', '.bin', 'tsc'), ['-p', 'tsconfig.json'], { cwd: dir, allowFail: true });
  if (!existsSync(join(dir, 'dist', 'src', 'cli', 'main.js'))) throw new Error(`${version.commit} did not build`);
  return dir;
}

async function make(version) {
  const tree = worktree(version);
  const fixture = join(FIXTURE_ROOT, version.name);
  rmSync(fixture, { recursive: true, force: true });
  const home = join(fixture, 'home');
  const dataDir = join(fixture, 'data');
  mkdirSync(join(fixture, 'models'), { recursive: true });
  mkdirSync(home, { recursive: true });
  const { writeTinyModel } = await import(join(ROOT, 'dist', 'src', 'demo', 'tiny-model.js'));
  const model = join(fixture, 'models', 'tiny.gguf');
  await writeTinyModel(model, { seed: 1, finishes: true });

  // No desktop session: the secrets go to a file under this fixture's HOME, as on a server.
  const env = { ...process.env, HOME: home, SANAD_THREADS: '1', SANAD_GPU: 'off', SANAD_LOG: 'warn' };
  delete env.DBUS_SESSION_BUS_ADDRESS;
  const sanad = (args, options = {}) => run(process.execPath, [join(tree, 'bin', 'sanad.js'), ...args, '--data-dir', dataDir], { env, ...options });

  const port = await freePort();
  const serve = spawn(
    process.execPath,
    [join(tree, 'bin', 'sanad.js'), 'serve', '--port', String(port), '--data-dir', dataDir, '--secrets-file-if-no-keychain'],
    { env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  serve.stdout.on('data', (d) => (out += d));
  serve.stderr.on('data', (d) => (out += d));
  const base = `http://127.0.0.1:${port}`;
  await waitFor(
    'the service',
    () => {
      if (serve.exitCode !== null) throw new Error(`sanad serve of ${version.commit} exited: ${out}`);
      return /serving at/i.test(out);
    },
    120_000,
  );
  const token = JSON.parse(
    sanad(['token', 'create', '--name', 'fixture-admin', '--scopes', 'admin,models:read,responses:write,tasks:read,tasks:write', '--json']).stdout,
  ).token;
  sanad(['models', 'add', model, '--id', 'tiny']);
  const api = async (method, path, body) => {
    const res = await globalThis.fetch(base + path, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null };
  };
  const textOf = (r) =>
    (r.output ?? [])
      .flatMap((o) => o.content ?? [])
      .map((c) => c.text ?? '')
      .join('');
  const responses = [];
  const create = async (body) => {
    const r = await api('POST', '/v1/responses', { model: 'tiny', max_output_tokens: 12, ...body });
    if (r.status !== 200 && r.status !== 202) throw new Error(`create answered ${r.status}: ${JSON.stringify(r.body)}`);
    const done = await waitFor('the response', async () => {
      const got = await api('GET', `/v1/responses/${r.body.id}`);
      return got.body?.status === 'completed' ? got.body : null;
    });
    responses.push({ id: done.id, text: textOf(done), background: body.background === true, deleted: false });
    return done;
  };

  if ((await api('PATCH', '/admin/settings', { backup_paused: true, drill_paused: true, backup_interval_hours: 12 })).status !== 200)
    throw new Error('settings were refused');
  const first = await create({ input: `hello from ${version.name}` });
  await create({ input: 'and the next turn', previous_response_id: first.id });
  await create({ input: 'in the background', background: true });
  const conversation = await api('POST', '/v1/conversations', {});
  let conversationId = null;
  if (conversation.status === 200) {
    conversationId = conversation.body.id;
    await create({ input: 'a conversation', conversation: conversationId });
    await create({ input: 'its second turn', conversation: conversationId });
  }
  const doomed = await create({ input: 'deleted on purpose' });
  if ((await api('DELETE', `/v1/responses/${doomed.id}`)).status !== 200) throw new Error('the delete was refused');
  responses.find((r) => r.id === doomed.id).deleted = true;

  const backup = () => JSON.parse(sanad(['backup', 'now', '--json']).stdout);
  const g1 = backup();
  await create({ input: 'between the two generations' });
  const g2 = backup();
  if (!g1.repositories.every((r) => r.ok) || !g2.repositories.every((r) => r.ok)) throw new Error(`a backup failed: ${JSON.stringify([g1, g2])}`);
  serve.kill('SIGTERM');
  await new Promise((resolve) => serve.once('exit', resolve));

  const db = new Database(join(dataDir, 'sanad.db'), { readonly: true });
  const storeVersion = db.pragma('user_version', { simple: true });
  db.close();
  // What only speeds a machine up is left out: restic's cache, the staged copies of generations.
  for (const transient of [join(dataDir, 'backups', 'cache'), join(dataDir, 'backups', 'staging'), join(home, '.cache')])
    rmSync(transient, { recursive: true, force: true });
  writeFileSync(
    join(fixture, 'fixture.json'),
    `${JSON.stringify({ name: version.name, commit: version.commit, what: version.what, store_version: storeVersion, token, model: 'tiny', conversation: conversationId, responses, generations: [g1.generation, g2.generation] }, null, 2)}\n`,
  );
  mkdirSync(join(ROOT, 'test', 'fixtures', 'upgrade'), { recursive: true });
  run('tar', ['-czf', join(ROOT, 'test', 'fixtures', 'upgrade', `${version.name}.tar.gz`), '-C', FIXTURE_ROOT, version.name]);
  run('git', ['worktree', 'remove', '--force', tree], { cwd: ROOT, allowFail: true });
  console.log(
    `${version.name}: ${version.commit}, store version ${storeVersion}, ${responses.length} responses, generations ${g1.generation} and ${g2.generation}`,
  );
}

const only = process.argv.slice(2);
for (const version of VERSIONS.filter((v) => only.length === 0 || only.includes(v.name))) await make(version);
