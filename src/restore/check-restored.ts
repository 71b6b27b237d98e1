// The checks on the assembled data dir: the registry pointed at the restored files, then each
// database read-only (integrity, table count), each model registration, the
// vault key against the vault, and finally Sanad's own answer to "where is each store?".
import { join } from 'node:path';
import { STORE_FILE } from '../files/data-dir-layout.js';
import { listModels, type ModelRow } from '../store/models.js';
import { openStore } from '../store/open.js';
import type { Placement } from './assemble.js';
import { say } from '../contract/said/index.js';
import { CheckFailed, type CheckList } from './checks.js';
import { pointRegistry, sourceDataDir } from './point-registry.js';
import { integrityReadOnly, storesLocated, vaultDecrypts } from './store-checks.js';

export interface RestoredDir {
  placed: Placement;
  /** The generation's folder as backed up: names the data dir it came from. */
  generationPath: string;
  target: string;
  inPlace: boolean;
  vaultKey: Buffer;
}

function registeredModels(storeFile: string): ModelRow[] {
  const db = openStore(storeFile, { readonly: true });
  try {
    return listModels(db);
  } finally {
    db.close();
  }
}

export async function checkRestoredStores(dir: RestoredDir, checks: CheckList): Promise<void> {
  const { placed } = dir;
  const names = placed.stores.map((s) => s.name).join(', ');
  const store = placed.stores.find((s) => s.name === STORE_FILE);
  // The registry is pointed at the restored files first (the store's sha256 was verified, so it is
  // the file the backup checked): one integrity_check then covers the file exactly as it will be used.
  const pointed = store
    ? await pointRegistry(store.path, {
        models: placed.models,
        modelsInPlace: dir.inPlace,
        oldDataDir: sourceDataDir(dir.generationPath),
        newDataDir: dir.target,
      }).then(
        (value) => ({ value }),
        (error: unknown) => ({ error }),
      )
    : null;
  const counted = await checks.run('sqlite:integrity', async () => {
    const found = await Promise.all(placed.stores.map(async (s) => ({ s, tables: (await integrityReadOnly(s.path)).tables })));
    return {
      said: store ? say('restore.integrity_ok_pointed', { stores: names, store: store.name }) : say('restore.integrity_ok', { stores: names }),
      value: found,
    };
  });
  await checks.run('sqlite:tables', async () => {
    const bad = counted.find((c) => c.tables !== c.s.tables);
    if (bad) throw new CheckFailed(say('restore.tables_wrong', { store: bad.s.name, tables: bad.tables, expected: bad.s.tables }));
    return {
      said: say('restore.tables_ok', { counts: counted.map((c) => say('restore.table_count', { store: c.s.name, count: c.tables })) }),
      value: undefined,
    };
  });
  if (store && pointed) {
    await checks.run('registry:updated', async () => {
      if ('error' in pointed) throw pointed.error;
      const u = pointed.value;
      const said = dir.inPlace
        ? say('restore.registry_in_place', { local: [u.local] })
        : say('restore.registry_moved', { count: u.models, path: join(dir.target, 'models'), local: [u.local] });
      return { said, value: undefined };
    });
    for (const row of registeredModels(store.path)) {
      const m = placed.models.find((p) => p.item.model_id === row.id);
      await checks.run(`models:${row.id}`, async () => {
        if (!m) return { said: say('restore.model_not_in_backup', { path: row.path }), value: undefined };
        if (row.path !== m.path || row.sha256 !== m.item.sha256 || row.size_bytes !== m.item.size) {
          throw new CheckFailed(say('restore.model_wrong_path', { path: row.path, sha256: row.sha256.slice(0, 12), file: m.path }));
        }
        return { said: say('restore.model_registered', { path: row.path }), value: undefined };
      });
    }
    await checks.run('vault:decrypt', async () => {
      const verdict = vaultDecrypts(store.path, dir.vaultKey);
      return { said: say(verdict === 'ok' ? 'restore.vault_opens' : 'restore.vault_empty'), value: undefined };
    });
  }
  await checks.run('store:located', async () => ({ said: await storesLocated(dir.target, placed.stores), value: undefined }));
}
