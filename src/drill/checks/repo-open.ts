// `repo:open`: the repository opens with the passphrase Sanad holds and has a generation; the
// newest one by epoch (never restic's `latest`) is what every later check looks at.
import { listSnapshotGenerations, type SnapshotGeneration } from '../../restore/snapshot-generations.js';
import { resticOutcome } from '../restic-outcome.js';
import { fail, pass, unverified, type CheckOutcome } from '../verdict.js';
import { signalOf, type RepoContext } from './repo-context.js';

export async function checkRepoOpen(ctx: RepoContext, found: { generation?: SnapshotGeneration }): Promise<CheckOutcome> {
  let generations: SnapshotGeneration[];
  try {
    generations = await listSnapshotGenerations(ctx.restic, ctx.target, signalOf(ctx));
  } catch (error) {
    return resticOutcome(error, { doing: 'Listing the snapshots', hadBackups: ctx.hadBackups });
  }
  const newest = generations[0];
  if (!newest) {
    return ctx.hadBackups
      ? fail('The repository opens but holds no Sanad backup, although backups were made to it; make a new backup now and find out what removed them.')
      : unverified('No backup has been made to this repository yet; run `sanad backup now`.');
  }
  found.generation = newest;
  return pass(`newest generation ${newest.generation} (snapshot ${newest.snapshot_id.slice(0, 8)}, ${newest.time}); ${generations.length} generation(s) in all`);
}
