// Looking inside a generation and keeping deletions deleted, against their raw baselines in the
// same run: (1) opening a generation (list its snapshot, read its manifest, restore its store
// alone, sha256 it, open it with Sanad's store code) against a raw `restic restore --include` of the
// same store file, fresh cache each; (2) a search over its responses against the same LIKE in raw
// SQL; (3) DELETE of a response with its write-ahead journal line (append + fsync) against the same
// delete without a journal, both on the real store with synchronous=FULL.
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { getRepository } from '../src/repository/repositories.js';
import { toResticRepo } from '../src/repository/restic-target.js';
import { createRestic } from '../src/repository/restic/index.js';
import { backupHere } from '../src/jobs/run-here.js';
import { openGenerationCopy } from '../src/history/generation-copy.js';
import { responsesPage } from '../src/history/read-generation.js';
import { generationFile, listSnapshotGenerations } from '../src/restore/snapshot-generations.js';
import { DeletionJournal } from '../src/store/deletion-journal.js';
import { deleteTerminalResponse } from '../src/tasks/retention.js';
import { tempDir } from '../test/harness/data-dir.js';
import { backupDataSet } from './backup-data.js';
import { median } from './stats.js';
import { STORE_FILE } from '../src/files/data-dir-layout.js';

export interface HistoryBenchResult {
  tasks: number;
  runs: number;
  openMs: number;
  rawRestoreMs: number;
  searchMs: number;
  rawSearchMs: number;
  deleteJournalUs: number;
  deleteBareUs: number;
  deletes: number;
}

export async function historyBench(tasks: number, runs: number, deletes: number): Promise<HistoryBenchResult> {
  const data = await backupDataSet(tasks, 1);
  try {
    const backup = await backupHere(data.deps, { trigger: 'bench' });
    if (backup.status !== 'ok') throw new Error(`the bench backup failed: ${JSON.stringify(backup)}`);
    const local = getRepository(data.db, 'local');
    if (!local) throw new Error('no local repository');
    const repo = toResticRepo(local, data.deps.vault, data.deps.passphrase);
    const binary = data.deps.restic.runtime.binary;
    const root = tempDir('sanad-bench-history-');
    const open: number[] = [];
    const raw: number[] = [];
    const search: number[] = [];
    const rawSearch: number[] = [];
    for (let i = 0; i < runs; i++) {
      const cache = join(root, `cache-${i}`);
      const restic = createRestic({ binary, cacheDir: cache, noLock: true });
      const t0 = performance.now();
      const [g] = await listSnapshotGenerations(restic, repo);
      if (!g) throw new Error('no generation');
      const opened = await openGenerationCopy({ restic, repo, g, dataDir: data.dataDir });
      open.push(performance.now() - t0);
      const s0 = performance.now();
      const page = responsesPage(opened.db, { q: 'needle', limit: 20 }, () => 'present');
      search.push(performance.now() - s0);
      const r0 = performance.now();
      const n = opened.db
        .prepare<[string, string], { n: number }>("SELECT COUNT(*) AS n FROM responses WHERE output_text LIKE ? ESCAPE '\\' OR request LIKE ? ESCAPE '\\'")
        .get('%needle%', '%needle%')?.n;
      opened.db
        .prepare<[string, string], { id: string }>(
          "SELECT id FROM responses WHERE output_text LIKE ? ESCAPE '\\' OR request LIKE ? ESCAPE '\\' ORDER BY id DESC LIMIT 21",
        )
        .all('%needle%', '%needle%');
      rawSearch.push(performance.now() - r0);
      if (n !== page.total) throw new Error(`search disagrees: ${page.total} vs ${String(n)}`);
      await opened.close();
      const env = {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HOME: root,
        RESTIC_PASSWORD: data.deps.passphrase,
        RESTIC_CACHE_DIR: join(root, `rawcache-${i}`),
        TZ: 'UTC',
      };
      const a0 = performance.now();
      const r = spawnSync(
        binary.path,
        ['--repo', repo.url, '--no-lock', 'restore', g.snapshot_id, '--include', generationFile(g, STORE_FILE), '--target', join(root, `raw-${i}`)],
        { env, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' },
      );
      if (r.status !== 0) throw new Error(`raw restic restore failed: ${r.stderr}`);
      raw.push(performance.now() - a0);
      rmSync(join(root, `raw-${i}`), { recursive: true, force: true });
    }
    // Deletes: alternate the two kinds over the data set's terminal responses.
    const ids = data.db
      .prepare<[number], { id: string }>('SELECT response_id AS id FROM tasks ORDER BY id LIMIT ?')
      .all(deletes * 2)
      .map((r) => r.id);
    const journal = DeletionJournal.of(data.dataDir);
    const none = { record: (): void => undefined };
    const withJournal: number[] = [];
    const bare: number[] = [];
    ids.forEach((id, i) => {
      const t0 = performance.now();
      const outcome = deleteTerminalResponse(data.db, id, i % 2 === 0 ? journal : none, 1);
      (i % 2 === 0 ? withJournal : bare).push((performance.now() - t0) * 1000);
      if (outcome !== 'deleted') throw new Error(`bench delete of ${id}: ${outcome}`);
    });
    return {
      tasks,
      runs,
      openMs: median(open),
      rawRestoreMs: median(raw),
      searchMs: median(search),
      rawSearchMs: median(rawSearch),
      deleteJournalUs: median(withJournal),
      deleteBareUs: median(bare),
      deletes: withJournal.length,
    };
  } finally {
    data.db.close();
  }
}
