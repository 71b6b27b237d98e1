// The deletion journal's own retention: an entry older than the oldest generation in every
// repository can go, since no generation left anywhere can hold that response. Only when every
// repository listed its generations (one that cannot be read might hold older ones), and never an
// id the live store still has (a delete journalled but not committed: its intent stays).
import type { Repository } from '../repository/repositories.js';
import type { Restic, ResticRepo } from '../repository/restic/index.js';
import type { Logger } from '../log/logger.js';
import { listSnapshotGenerations } from '../restore/snapshot-generations.js';
import type { DeletionJournal } from '../store/deletion-journal.js';
import type { ReadableDB } from '../store/open.js';

export async function compactJournal(input: {
  restic: Restic;
  repositories: readonly Repository[];
  resticRepo: (r: Repository) => ResticRepo;
  journal: DeletionJournal;
  live: ReadableDB;
  logger: Logger;
  signal?: AbortSignal;
}): Promise<number | null> {
  let oldest = Number.POSITIVE_INFINITY;
  for (const r of input.repositories) {
    try {
      const gens = await listSnapshotGenerations(input.restic, input.resticRepo(r), input.signal ? { signal: input.signal } : {});
      for (const g of gens) oldest = Math.min(oldest, g.generation);
    } catch (err) {
      input.logger.info('deletion journal kept whole: a repository could not be listed', {
        repo: r.name,
        error: err instanceof Error ? err.message : String(err),
      });
      return null;
    }
  }
  if (!Number.isFinite(oldest)) return 0;
  const has = input.live.prepare<[string], { id: string }>('SELECT id FROM responses WHERE id = ?');
  const dropped = input.journal.rewrite((d) => d.at >= oldest || has.get(d.id) !== undefined);
  if (dropped > 0) input.logger.info('deletion journal compacted', { dropped, oldest_generation: oldest });
  return dropped;
}
