// A forged generation, as the recovery kit's holder could make one: a real generation whose store is
// altered before upload (endless recursive views in place of `vault` and `responses`; a trigger that
// never ends; a planted admin client and the network switch on), its manifest's size and sha256
// fixed, backed up to the real restic repository. Looking inside, a drill and a restore each refuse
// the first two within seconds while /health/live keeps answering (every probe is timed and printed);
// the third is restored with its client revoked and devices on the network off.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { field, str } from '../harness/api.js';
import { startTestAppliance, type TestAppliance } from '../harness/appliance.js';
import { newAdminToken, tempDir } from '../harness/data-dir.js';
import { startServiceProcess, type ServiceProcess } from '../harness/service-process.js';
import { backupHandMade, backupNow, drillCli } from '../drill/kit.js';
import { check, restoreCli } from './kit.js';
import { type Manifest } from '../../src/repository/generation/manifest.js';

const ENDLESS = 'WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c)';
const VIEWS = `
  DROP TABLE vault;
  CREATE VIEW vault AS ${ENDLESS} SELECT 'k' || n AS name, x'00' AS nonce, x'00' AS ciphertext, x'00' AS tag, 0 AS updated_at FROM c;
  DROP TABLE responses;
  CREATE VIEW responses AS ${ENDLESS} SELECT 'resp_' || n AS id FROM c;`;
const TRIGGER = `CREATE TRIGGER endless AFTER UPDATE ON models BEGIN SELECT count(*) FROM (${ENDLESS} SELECT n FROM c); END;`;

let t: TestAppliance | null = null;
const services: ServiceProcess[] = [];
after(async () => {
  for (const s of services) await s.stop();
  await t?.close();
});

/** A real generation whose store had `sql` run on it before upload, its manifest describing the result. */
async function forged(app: TestAppliance, sql: string): Promise<number> {
  const made = await backupHandMade(app.appliance.ctx, {
    alter: (dir, manifest): Manifest => {
      const file = join(dir, 'sanad.db');
      const db = new Database(file);
      db.pragma('foreign_keys = OFF');
      db.exec(sql);
      db.close();
      const data = readFileSync(file);
      const sha256 = createHash('sha256').update(data).digest('hex');
      return { ...manifest, items: manifest.items.map((i) => (i.path === 'sanad.db' ? { ...i, size: data.length, sha256 } : i)) };
    },
  });
  return made.epoch;
}

/** Probes /health/live every 50 ms while `work` runs; every probe must answer 200 within 5 s. */
async function whileLive<T>(app: TestAppliance, work: Promise<T>): Promise<{ value: T; probes: number; slowestMs: number }> {
  let done = false;
  const latencies: number[] = [];
  const probing = (async () => {
    while (!done) {
      const started = performance.now();
      const res = await fetch(`${app.appliance.url}/health/live`, { signal: AbortSignal.timeout(5000) });
      assert.equal(res.status, 200, '/health/live answers while the forged store is looked at');
      latencies.push(performance.now() - started);
      await new Promise((r) => setTimeout(r, 50));
    }
  })();
  try {
    return { value: await work, probes: latencies.length, slowestMs: Math.max(0, ...latencies) };
  } finally {
    done = true;
    await probing;
  }
}

test('a generation whose store holds endless views: look inside, a drill and a restore refuse it, and the service answers throughout', async () => {
  t = await startTestAppliance();
  await backupNow(t.appliance.ctx);
  const epoch = await forged(t, VIEWS);
  const app = t;

  const looked = await whileLive(app, app.api.get(`/admin/generations/${epoch}`));
  console.log(`look inside: ${looked.probes} health probes, slowest ${looked.slowestMs.toFixed(1)} ms`);
  assert.equal(looked.value.status, 409, looked.value.text);
  assert.equal(str(looked.value.body, 'error', 'code'), 'generation_not_sanad');
  assert.match(
    str(looked.value.body, 'error', 'message'),
    new RegExp(
      `^Generation ${epoch} does not hold a Sanad store: its schema is not that of a Sanad store \\(version \\d+\\): it has a view "(vault|responses)" that Sanad never makes`,
    ),
  );
  assert.ok(looked.probes > 0);

  // The scheduled drill picks the newest generation: this one.
  const drill = await drillCli(app.dataDir);
  assert.equal(drill.verdict, 'FAIL', drill.ran.stdout);
  assert.equal(drill.status('local:sqlite:integrity'), 'fail');
  assert.match(drill.detail('local:sqlite:integrity'), /sanad\.db of generation \d+ is not a Sanad store: .*view/);
  assert.notEqual(drill.status('local:vault:decrypt'), 'pass', 'the vault of a forged store is never opened');

  const target = join(tempDir('sanad-forged-'), 'restored');
  const restored = await whileLive(app, restoreCli(app.dataDir, ['--target', target, '--generation', String(epoch)]));
  const out = restored.value;
  assert.equal(out.ran.code, 1, out.ran.stdout);
  assert.equal(check(out, 'store:sanad').ok, false);
  assert.match(check(out, 'store:sanad').detail, /sanad\.db is not a Sanad store: .*Nothing of it was opened/);
  assert.ok(!out.checks.some((c) => c.name === 'files:placed'), 'nothing was placed');
  assert.equal(existsSync(join(target, 'sanad.db')), false);
  assert.equal((await app.api.get('/health/live')).status, 200);
});

test('a trigger that never ends is refused before the restore writes to the store', async () => {
  if (!t) throw new Error('the first test starts the appliance');
  const epoch = await forged(t, TRIGGER);
  const target = join(tempDir('sanad-forged-'), 'restored');
  const out = await restoreCli(t.dataDir, ['--target', target, '--generation', String(epoch)]);
  assert.equal(out.ran.code, 1, out.ran.stdout);
  assert.match(check(out, 'store:sanad').detail, /it has a trigger "endless" that Sanad never makes/);
  const drill = await drillCli(t.dataDir);
  assert.match(drill.detail('local:sqlite:integrity'), /not a Sanad store: .*trigger "endless"/);
});

test('a planted admin client, the network switch and an update feed come back revoked, off and forgotten unless the clients are kept', async () => {
  if (!t) throw new Error('the first test starts the appliance');
  const token = 'sk-sanad-planted-by-whoever-wrote-to-the-repository';
  const hash = createHash('sha256').update(token).digest('hex');
  const epoch = await forged(
    t,
    `
    INSERT INTO clients(id, name, token_hash, scopes, created_at) VALUES ('client_planted', 'planted', '${hash}', '["admin"]', 1);
    INSERT OR REPLACE INTO service_config(key, value, updated_at) VALUES ('lan_enabled', 'true', 1);
    INSERT OR REPLACE INTO service_config(key, value, updated_at) VALUES ('update_feed_url', '"https://updates.forger.example/sanad/"', 1);`,
  );
  const target = join(tempDir('sanad-forged-'), 'restored');
  const out = await restoreCli(t.dataDir, ['--target', target, '--generation', String(epoch)]);
  assert.equal(out.ran.code, 0, `${out.ran.stdout}\n${out.ran.stderr}`);
  assert.ok(check(out, 'store:sanad').ok, "its schema is Sanad's own: only its rows were planted");
  assert.match(
    check(out, 'exposure:reset').detail,
    /\d+ paired clients? of the backup (was|were) switched off .*--keep-clients.*; devices on the network were on in the backup and are off now.*; the backup's own update feed was forgotten/,
  );

  const service = await startServiceProcess(target, newAdminToken(target));
  services.push(service);
  assert.equal((await service.api.withToken(token).get('/v1/models')).status, 401, 'the planted token opens nothing');
  const lan = await service.api.get('/admin/lan');
  assert.equal(field(lan.body, 'enabled'), false, 'no listener on the network');
  assert.equal(field(lan.body, 'running'), false);
  const settings = await service.api.get('/admin/settings');
  assert.equal(field(settings.body, 'update_feed_url'), null, "the forger's feed is not where the restored Sanad looks for updates");
  await service.stop();

  // Told to keep them (the person trusts this backup): the clients stay as they were; the switch is still off.
  const kept = join(tempDir('sanad-forged-'), 'kept');
  const keep = await restoreCli(t.dataDir, ['--target', kept, '--generation', String(epoch), '--keep-clients']);
  assert.equal(keep.ran.code, 0, keep.ran.stdout);
  assert.match(check(keep, 'exposure:reset').detail, /paired clients? kept, as you asked; devices on the network were on in the backup and are off now/);
  const db = new Database(join(kept, 'sanad.db'), { readonly: true });
  const row = db.prepare<[], { revoked_at: number | null }>("SELECT revoked_at FROM clients WHERE id = 'client_planted'").get();
  db.close();
  assert.equal(row?.revoked_at, null);
});
