// Upgrades: data dirs and repositories made by earlier versions of Sanad, by really running them
// (scripts/make-upgrade-fixtures.mjs: the last commit before each store change, its own CLI and
// service), open and restore with this one. For each fixture: `sanad serve` migrates the data dir,
// keeping the copy from before, and serves every old response unchanged (the deleted one stays
// deleted) and its backups in the one record of runs; `sanad restore` of each old generation gives a
// verified data dir; a drill PASSes on the old repository; a backup by this version goes into the
// old repository and the old generations still restore. A data dir from a newer Sanad is refused
// with the sentence that says to install it, and nothing is written.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { execFileSync } from 'node:child_process';
import Database from 'better-sqlite3';
import { latestVersion } from '../../src/store/migrate.js';
import { field } from '../harness/api.js';
import { tempDir } from '../harness/data-dir.js';
import { runSanad } from '../harness/run-sanad.js';
import { startServiceProcess } from '../harness/service-process.js';

const FIXTURES = new URL('../../../test/fixtures/upgrade/', import.meta.url).pathname;
/** Where each fixture was made, and so where it must be unpacked: a data dir records absolute paths. */
const FIXTURE_ROOT = '/tmp/sanad-upgrade-fixture';

interface Fixture {
  name: string;
  commit: string;
  store_version: number;
  token: string;
  conversation: string | null;
  responses: Array<{ id: string; text: string; deleted: boolean }>;
  generations: number[];
}

function isFixture(value: unknown): value is Fixture {
  return typeof value === 'object' && value !== null && 'name' in value && 'responses' in value && 'generations' in value && 'token' in value;
}

function unpack(archive: string): { dir: string; fixture: Fixture } {
  mkdirSync(FIXTURE_ROOT, { recursive: true });
  const name = archive.replace(/\.tar\.gz$/, '');
  const dir = join(FIXTURE_ROOT, name);
  rmSync(dir, { recursive: true, force: true });
  execFileSync('tar', ['-xzf', join(FIXTURES, archive), '-C', FIXTURE_ROOT]);
  const parsed: unknown = JSON.parse(readFileSync(join(dir, 'fixture.json'), 'utf8'));
  assert.ok(isFixture(parsed), `${archive} holds a fixture.json`);
  return { dir, fixture: parsed };
}

const sha256 = (path: string): string => createHash('sha256').update(readFileSync(path)).digest('hex');
const textOf = (body: unknown): string => {
  const output = field(body, 'output');
  assert.ok(Array.isArray(output));
  return output
    .flatMap((o: unknown) => {
      const content = field(o, 'content');
      return Array.isArray(content) ? content.map((c: unknown) => String(field(c, 'text'))) : [];
    })
    .join('');
};

const archives = readdirSync(FIXTURES)
  .filter((f) => f.endsWith('.tar.gz'))
  .sort();

test('there are upgrade fixtures of at least three earlier store versions', () => {
  const versions = new Set(archives.map((a) => unpack(a).fixture.store_version));
  assert.ok(versions.size >= 3, `store versions: ${[...versions].join(', ')}`);
  for (const v of versions) assert.ok(v < latestVersion(), 'each is older than this Sanad');
});

for (const archive of archives) {
  test(`upgrade from ${archive}: served, restored, drilled and backed up by this Sanad`, async () => {
    const { dir, fixture } = unpack(archive);
    const dataDir = join(dir, 'data');
    const secrets = join(dir, 'home', '.config', 'sanad', 'secrets');
    const env = { HOME: join(dir, 'home'), DBUS_SESSION_BUS_ADDRESS: '' };
    const withSecrets = ['--secrets-file', secrets];
    const what = `${fixture.name} (commit ${fixture.commit}, store version ${fixture.store_version})`;

    const service = await startServiceProcess(dataDir, fixture.token, env, withSecrets);
    try {
      assert.ok(existsSync(join(dataDir, `sanad.db.before-migration-v${fixture.store_version}.bak`)), `${what}: the store as it was is kept aside`);
      for (const r of fixture.responses) {
        const got = await service.api.get(`/v1/responses/${r.id}`);
        if (r.deleted) {
          assert.equal(got.status, 404, `${what}: ${r.id} was deleted on purpose and stays deleted`);
          continue;
        }
        assert.equal(got.status, 200, `${what}: ${r.id}: ${got.text}`);
        assert.equal(field(got.body, 'status'), 'completed');
        assert.equal(textOf(got.body), r.text, `${what}: ${r.id} is served unchanged`);
      }
      if (fixture.conversation !== null) {
        const items = await service.api.get(`/v1/conversations/${fixture.conversation}/items`);
        assert.equal(items.status, 200, items.text);
      }
      const runs = await service.api.get('/admin/runs?kind=backup');
      const data = field(runs.body, 'data');
      assert.ok(Array.isArray(data), runs.text);
      const generations = data.map((r: unknown) => field(r, 'generation'));
      for (const g of fixture.generations) assert.ok(generations.includes(g), `${what}: the old backup of generation ${g} is in the one record of runs`);
    } finally {
      assert.equal(await service.stop(), 0);
    }

    for (const g of fixture.generations) {
      const target = join(tempDir('sanad-upgrade-restore-'), 'restored');
      const restored = await runSanad(['restore', '--target', target, '--generation', String(g), '--json', '--data-dir', dataDir, ...withSecrets], { env });
      assert.equal(restored.code, 0, `${what}: restore of generation ${g}: ${restored.stderr}${restored.stdout}`);
      assert.ok(existsSync(join(target, 'sanad.db')));
    }
    const drill = await runSanad(['drill', '--json', '--data-dir', dataDir, ...withSecrets], { env });
    assert.equal(drill.code, 0, `${what}: ${drill.stdout}${drill.stderr}`);
    assert.equal(field(JSON.parse(drill.stdout), 'verdict'), 'PASS');

    const backup = await runSanad(['backup', 'now', '--json', '--data-dir', dataDir, ...withSecrets], { env });
    assert.equal(backup.code, 0, `${what}: a backup by this Sanad into the old repository: ${backup.stderr}${backup.stdout}`);
    const oldest = fixture.generations[0];
    assert.ok(oldest !== undefined);
    const again = await runSanad(
      [
        'restore',
        '--target',
        join(tempDir('sanad-upgrade-restore-'), 'again'),
        '--generation',
        String(oldest),
        '--json',
        '--data-dir',
        dataDir,
        ...withSecrets,
      ],
      { env },
    );
    assert.equal(again.code, 0, `${what}: the old generation still restores after the new backup: ${again.stderr}`);
  });
}

test('a data dir from a newer Sanad is refused with the sentence that says to install it, and nothing is written', async () => {
  const first = archives[0];
  assert.ok(first !== undefined);
  const { dir } = unpack(first);
  const dataDir = join(tempDir('sanad-newer-'), 'data');
  cpSync(join(dir, 'data'), dataDir, { recursive: true });
  const db = new Database(join(dataDir, 'sanad.db'));
  db.pragma(`user_version = ${latestVersion() + 1}`);
  db.close();
  const before = sha256(join(dataDir, 'sanad.db'));
  const entries = readdirSync(dataDir).sort();
  const ran = await runSanad(['serve', '--port', '0', '--data-dir', dataDir, '--secrets-file', join(dir, 'home', '.config', 'sanad', 'secrets')], {
    env: { HOME: join(dir, 'home'), DBUS_SESSION_BUS_ADDRESS: '' },
  });
  assert.notEqual(ran.code, 0);
  assert.match(ran.stderr, /written by a newer Sanad .*Install the newer Sanad again/s);
  assert.equal(sha256(join(dataDir, 'sanad.db')), before, 'the store is untouched');
  assert.deepEqual(readdirSync(dataDir).sort(), entries, 'no copy, no lock, nothing new beside it');
});
