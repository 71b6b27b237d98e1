// An S3 offsite end to end, in process: s3rver over TLS on loopback (self-signed certificate,
// trusted through the repository's `cacert`), a backup to local + S3, the snapshot visible to a
// plain restic on that bucket, the secret key nowhere but the vault (not in the data dir's files
// in clear, not in restic's argv, not in the logs), and the server stopped → partial + alert.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { openAlerts } from '../../../src/store/alerts.js';
import { backupDepsFor } from '../../../src/backup/backup-deps.js';
import { addRepository } from '../../../src/repository/repositories.js';
import { createRestic, findRestic } from '../../../src/repository/restic/index.js';
import { type BackupOutcome, type RepositoryOutcome } from '../../../src/backup/run-backup.js';
import { backupHere } from '../../../src/jobs/run-here.js';
import { systemClock } from '../../../src/clock.js';
import { createLogger } from '../../../src/log/logger.js';
import { startTestAppliance, type TestAppliance } from '../../harness/appliance.js';
import { tempDir } from '../../harness/data-dir.js';
import { freePort } from './rest-server.js';
import { resticSpy } from './restic-spy.js';
import { S3_ACCESS_KEY_ID, S3Server } from './s3-server.js';

let t: TestAppliance | null = null;
let s3: S3Server | null = null;
after(async () => {
  await s3?.stop();
  await t?.close();
});

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));
}

/** Snapshot ids as restic itself lists them, with nothing of Sanad's in between. Asynchronous:
 *  s3rver runs in this process, and a blocking call would stall its TLS handshake. */
async function plainSnapshotIds(server: S3Server, location: string, secret: string, passphrase: string): Promise<string[]> {
  const { stdout } = await promisify(execFile)('restic', ['-r', `s3:${location}`, '--cacert', server.certPath, '--no-cache', 'snapshots', '--json'], {
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: tempDir(),
      AWS_ACCESS_KEY_ID: S3_ACCESS_KEY_ID,
      AWS_SECRET_ACCESS_KEY: secret,
      RESTIC_PASSWORD: passphrase,
    },
    encoding: 'utf8',
  });
  const list: unknown = JSON.parse(stdout);
  assert.ok(Array.isArray(list), stdout);
  return list.map((s: unknown) => (typeof s === 'object' && s !== null && 'id' in s ? String(s.id) : ''));
}

function repo(outcome: BackupOutcome, name: string): RepositoryOutcome {
  const found = outcome.repositories.find((r) => r.name === name);
  assert.ok(found, `an outcome for ${name}`);
  return found;
}

test('s3 offsite over TLS: snapshot on the bucket, secret never leaks, server down → partial + alert', { timeout: 120_000 }, async () => {
  t = await startTestAppliance();
  const { writer: db, secrets } = t.appliance.ctx;
  const server = new S3Server(tempDir('sanad-s3-'), await freePort());
  s3 = server;
  await server.start();
  // s3rver does not verify SigV4 signatures, so a random secret works; a distinctive one is what
  // makes "it never appears" meaningful (the default S3RVER is also the access key id, shown openly).
  const secret = `s3-secret-${randomBytes(16).toString('hex')}`;
  const location = server.location('sanad/offsite');
  addRepository(
    db,
    secrets.vault,
    {
      name: 's3',
      type: 's3',
      location,
      secret,
      options: { access_key_id: S3_ACCESS_KEY_ID, region: 'us-east-1', cacert: server.certPath },
    },
    systemClock,
  );

  const logLines: string[] = [];
  const logger = createLogger({ level: 'debug', sink: (line) => logLines.push(line) });
  const spy = await resticSpy();
  const base = await backupDepsFor({ db, dataDir: t.dataDir, store: secrets.store, clock: systemClock, logger });
  // Same deps as `sanad backup now`, with restic behind the argv-recording wrapper.
  const deps = { ...base, restic: createRestic({ ...base.restic.runtime, binary: await findRestic({ configuredPath: spy.path }) }) };

  const first = await backupHere(deps, { trigger: 'test' });
  assert.equal(first.status, 'ok', JSON.stringify(first));
  assert.equal(repo(first, 'local').ok, true);
  const offsite = repo(first, 's3');
  assert.equal(offsite.ok, true, offsite.error ?? '');
  assert.ok(offsite.snapshot_id);

  // A plain restic, given only the bucket URL, the certificate, the keys and the passphrase, sees it.
  const listed = await plainSnapshotIds(server, location, secret, deps.passphrase);
  assert.equal(listed.length, 1, `one snapshot on S3: ${listed.join(', ')}`);
  assert.ok(listed[0]?.startsWith(offsite.snapshot_id), `S3 lists the snapshot the run reported (${listed[0] ?? ''} vs ${offsite.snapshot_id})`);

  // The secret went to restic (its environment) and nowhere it could be read back in clear.
  const hash = createHash('sha256').update(secret).digest('hex');
  assert.ok(spy.secretHashes().includes(hash), 'restic got the secret key in its environment');
  const argv = spy.argv();
  assert.ok(
    argv.some((a) => a.includes(`--cacert=${server.certPath}`)),
    'the certificate is passed',
  );
  assert.ok(
    argv.every((a) => !a.includes(secret)),
    'no restic argv holds the secret',
  );
  const rows = JSON.stringify(db.prepare('SELECT * FROM repositories').all());
  assert.ok(rows.includes(S3_ACCESS_KEY_ID) && !rows.includes(secret), 'the table shows the key id, not the secret');
  const needle = Buffer.from(secret);
  const leaks = filesUnder(t.dataDir).filter((f) => readFileSync(f).includes(needle));
  assert.deepEqual(leaks, [], 'no file in the data dir holds the secret in clear');
  assert.ok(logLines.length > 0 && logLines.every((l) => !l.includes(secret)), 'nor does any log line');

  // Offsite down: the local backup still succeeds; the run is partial and the failure alerts.
  // (~25 s: restic 0.14 says "unable to open config file" for a refused connection, Sanad reads
  // that as "no repository" and runs `init`, which retries. Reported, not worked around here.)
  await server.stop();
  const down = await backupHere(deps, { trigger: 'test' });
  assert.equal(down.status, 'partial', JSON.stringify(down));
  assert.equal(repo(down, 'local').ok, true, 'an offsite failure never fails the local backup');
  assert.equal(repo(down, 's3').ok, false);
  assert.ok(!(repo(down, 's3').error ?? '').includes(secret), 'the error text holds no secret');
  assert.ok(
    openAlerts(db).some((a) => a.key === 'backup.offsite_failed:s3'),
    'the failure alerts',
  );

  // Back up (same port, folder and certificate): the next run reaches it and resolves the alert.
  await server.start();
  const back = await backupHere(deps, { trigger: 'test' });
  assert.equal(back.status, 'ok', JSON.stringify(back));
  assert.ok(!openAlerts(db).some((a) => a.key === 'backup.offsite_failed:s3'), 'resolved once it works again');
  assert.equal((await plainSnapshotIds(server, location, secret, deps.passphrase)).length, 2);
  const runs = db
    .prepare<[], { status: string }>("SELECT status FROM runs WHERE kind = 'backup' ORDER BY id")
    .all()
    .map((r) => r.status);
  assert.deepEqual(runs, ['ok', 'partial', 'ok']);
});
