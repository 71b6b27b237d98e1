// `sanad token create` and usage errors, run as the real command.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hashToken } from '../../src/store/clients.js';
import { openStore } from '../../src/store/open.js';
import { field, str } from '../harness/api.js';
import { startTestAppliance } from '../harness/appliance.js';
import { prepareDataDir, tempDir } from '../harness/data-dir.js';
import { assertOneLineError, jsonOut, runCli } from './run-cli.js';
import { storePath } from '../../src/files/data-dir-layout.js';

function clientRows(dataDir: string): Array<{ name: string; token_hash: string; scopes: string }> {
  const db = openStore(storePath(dataDir));
  try {
    return db.prepare<[], { name: string; token_hash: string; scopes: string }>('SELECT name, token_hash, scopes FROM clients ORDER BY id').all();
  } finally {
    db.close();
  }
}

test('token create --json prints {client_id, token, scopes} and the token works against a service on that data dir', async (t) => {
  const prepared = await prepareDataDir();
  const r = await runCli(['token', 'create', '--name', 'x', '--scopes', 'models:read', '--json', '--data-dir', prepared.dataDir]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stderr, '', '--json prints nothing else');
  const out = jsonOut(r);
  assert.deepEqual(Object.keys(out ?? {}).sort(), ['client_id', 'scopes', 'token']);
  assert.match(str(out, 'client_id'), /^client_/);
  assert.deepEqual(field(out, 'scopes'), ['models:read']);
  const token = str(out, 'token');
  const stored = clientRows(prepared.dataDir).find((c) => c.name === 'x');
  assert.equal(stored?.token_hash, hashToken(token), 'the store holds the hash of the printed token');
  assert.deepEqual(JSON.parse(stored?.scopes ?? '[]'), ['models:read']);

  const ta = await startTestAppliance({ dataDir: prepared.dataDir, adminToken: prepared.adminToken });
  t.after(() => ta.close());
  const api = ta.api.withToken(token);
  assert.equal((await api.get('/v1/models')).status, 200);
  assert.equal((await api.post('/v1/responses', { model: 'tiny', input: 'hi' })).status, 403, 'only the scopes asked for');

  // Made beside the running service, the service makes it (and tells its GUI); it works at once.
  const told: string[] = [];
  const stop = ta.appliance.ctx.adminEvents.subscribe((e) => {
    if (e.type === 'clients.changed') told.push(e.data.change);
  });
  t.after(stop);
  const beside = await runCli(['token', 'create', '--name', 'late', '--scopes', 'tasks:read,models:read', '--json', '--data-dir', prepared.dataDir]);
  assert.equal(beside.code, 0, beside.stderr);
  assert.deepEqual(field(jsonOut(beside), 'scopes'), ['tasks:read', 'models:read']);
  assert.equal((await api.withToken(str(jsonOut(beside), 'token')).get('/v1/tasks')).status, 200);
  assert.ok(told.includes('created'), `the service made the client: ${JSON.stringify(told)}`);
});

test('without --json the token is shown once with a note on stderr', async () => {
  const dataDir = tempDir('sanad-cli-');
  const r = await runCli(['token', 'create', '--name', 'human', '--scopes', 'admin', '--data-dir', dataDir]);
  assert.equal(r.code, 0, r.stderr);
  const token = /Token: (sk-sanad-\S+)/.exec(r.stdout)?.[1];
  assert.ok(token, r.stdout);
  assert.equal(clientRows(dataDir)[0]?.token_hash, hashToken(token));
  assert.match(r.stderr, /only its hash/);
});

test('a bad scope or missing option exits 2 with one line on stderr and creates nothing', async () => {
  const prepared = await prepareDataDir();
  const before = clientRows(prepared.dataDir);
  const d = ['--data-dir', prepared.dataDir];
  const cases: Array<[string[], RegExp]> = [
    [['token', 'create', '--name', 'x', '--scopes', 'root', ...d], /Unknown scope "root"/],
    [['token', 'create', '--name', 'x', '--scopes', 'models:read,root', '--json', ...d], /Unknown scope "root"/],
    [['token', 'create', '--name', 'x', '--scopes', ',', ...d], /scope/],
    [['token', 'create', '--scopes', 'admin', ...d], /--name/],
    [['token', 'create', '--name', 'x', ...d], /--scopes/],
    [['token', 'create', '--name', 'x', '--scopes', 'admin', '--bogus', ...d], /bogus/],
    [['token', 'delete', ...d], /Unknown token command "delete"/],
    [['token', 'creat', ...d], /Unknown token command "creat"; did you mean "create"\? Use `sanad token create`/],
    [['repo', 'lst', ...d], /Unknown repo command "lst"; did you mean "list"\? Use add, list, remove or test/],
  ];
  // These fail before touching the store, so they can run side by side.
  await Promise.all(cases.map(async ([args, pattern]) => assertOneLineError(await runCli(args), 2, pattern)));
  assert.deepEqual(clientRows(prepared.dataDir), before);
});

test('an unknown command exits 2 with one line; help exits 0', async () => {
  const dataDir = tempDir('sanad-cli-');
  const [unknown, noDir, help] = await Promise.all([runCli(['frobnicate', '--data-dir', dataDir]), runCli(['--data-dir']), runCli(['help'])]);
  assertOneLineError(unknown, 2, /Unknown command "frobnicate"/);
  assertOneLineError(noDir, 2, /--data-dir needs a folder/);
  assert.equal(help.code, 0);
  assert.match(help.stdout, /token create/);
  const none = await runCli([]);
  assert.equal(none.code, 2, 'no command is a usage mistake');
});
