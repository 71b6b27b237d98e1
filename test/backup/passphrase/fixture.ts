// A data dir with real master secrets in the (test session's) keychain, a local restic repository
// and a REST offsite (rclone serve restic on loopback), each holding one backup; plus helpers to
// ask restic which keys a passphrase opens. Log lines are captured so tests can search them.
import assert from 'node:assert/strict';
import { backupDepsFor } from '../../../src/backup/backup-deps.js';
import type { RotationDeps } from '../../../src/backup/passphrase-rotation.js';
import { addRepository, ensureLocalRepository, getRepository } from '../../../src/repository/repositories.js';
import { ResticError, type ResticKey } from '../../../src/repository/restic/index.js';
import { toResticRepo } from '../../../src/repository/restic-target.js';
import { type BackupDeps } from '../../../src/backup/run-backup.js';
import { backupHere } from '../../../src/jobs/run-here.js';
import { systemClock } from '../../../src/clock.js';
import { createLogger, type Logger } from '../../../src/log/logger.js';
import { KeychainStore } from '../../../src/secrets/keychain.js';
import { ensureMasterSecrets } from '../../../src/secrets/master-secrets.js';
import { dataDirScope } from '../../../src/secrets/scope.js';
import { RESTIC_PASSPHRASE, RESTIC_PASSPHRASE_NEXT, type SecretStore } from '../../../src/secrets/secret-store.js';
import { Vault } from '../../../src/secrets/vault.js';
import { openStore, type Db } from '../../../src/store/open.js';
import { prepareDataDir, tempDir } from '../../harness/data-dir.js';
import { freePort, RestServer } from '../run/rest-server.js';
import { storePath } from '../../../src/files/data-dir-layout.js';

export interface RotationFixture {
  dataDir: string;
  adminToken: string;
  db: Db;
  store: KeychainStore;
  rest: RestServer;
  logger: Logger;
  logLines: string[];
  /** Everything a rotation needs, read fresh from the data dir (as the CLI does). */
  deps(store?: SecretStore): Promise<RotationDeps & BackupDeps>;
  /** The keys `passphrase` sees in repository `name`, or 'refused' when it opens nothing there. */
  keys(name: string, passphrase: string): Promise<ResticKey[] | 'refused'>;
  current(): Promise<string>;
  pending(): Promise<string | null>;
  close(): Promise<void>;
}

export async function rotationFixture(): Promise<RotationFixture> {
  const prepared = await prepareDataDir();
  const { dataDir } = prepared;
  const db = openStore(storePath(dataDir));
  const store = new KeychainStore(dataDirScope(dataDir));
  const master = await ensureMasterSecrets(db, store, systemClock);
  ensureLocalRepository(db, dataDir, systemClock);
  const rest = new RestServer(tempDir(), await freePort());
  await rest.start();
  addRepository(db, new Vault(db, master.vaultKey), { name: 'offsite', type: 'rest', location: rest.url }, systemClock);
  const logLines: string[] = [];
  const logger = createLogger({ level: 'debug', sink: (line) => logLines.push(line) });
  const deps = async (s: SecretStore = store): Promise<RotationDeps & BackupDeps> => ({
    ...(await backupDepsFor({ db, dataDir, store: s, clock: systemClock, logger })),
    store: s,
  });
  const first = await backupHere(await backupDepsFor({ db, dataDir, store, clock: systemClock, logger }), { trigger: 'test' });
  assert.equal(first.status, 'ok', `the setup backup works: ${JSON.stringify(first.repositories)}`);
  return {
    dataDir,
    adminToken: prepared.adminToken,
    db,
    store,
    rest,
    logger,
    logLines,
    deps,
    async keys(name, passphrase) {
      const d = await deps();
      const repo = getRepository(db, name);
      assert.ok(repo, `repository ${name}`);
      try {
        return await d.restic.listKeys(toResticRepo(repo, d.vault, passphrase));
      } catch (err) {
        if (err instanceof ResticError && err.kind === 'wrong_password') return 'refused';
        throw err;
      }
    },
    async current() {
      const value = await store.get(RESTIC_PASSPHRASE);
      assert.ok(value, 'the keychain holds a passphrase');
      return value;
    },
    pending: () => store.get(RESTIC_PASSPHRASE_NEXT),
    async close() {
      await rest.stop();
      db.close();
    },
  };
}

/** Asserts `passphrase` opens every repository and each holds exactly `count` keys. */
export async function assertOpensAll(f: RotationFixture, passphrase: string, count: number, what: string): Promise<void> {
  for (const name of ['local', 'offsite']) {
    const keys = await f.keys(name, passphrase);
    assert.notEqual(keys, 'refused', `${what}: the passphrase opens ${name}`);
    if (keys !== 'refused') assert.equal(keys.length, count, `${what}: ${name} holds ${count} key(s), has ${keys.map((k) => k.id).join(', ')}`);
  }
}

export async function assertOpensNone(f: RotationFixture, passphrase: string, what: string): Promise<void> {
  for (const name of ['local', 'offsite']) assert.equal(await f.keys(name, passphrase), 'refused', `${what}: ${name} refuses it`);
}
