// `repo:open`: the repository opens with the passphrase Sanad holds and has a generation; the
// newest one by epoch (never restic's `latest`) is what every later check looks at.
import { listSnapshotGenerations, type SnapshotGeneration } from '../../restore/snapshot-generations.js';
import { say } from '../../contract/said/index.js';
import { resticOutcome } from '../restic-outcome.js';
import { fail, pass, unverified, type CheckOutcome } from '../verdict.js';
import { signalOf, type RepoContext } from './repo-context.js';

export async function checkRepoOpen(ctx: RepoContext, found: { generation?: SnapshotGeneration }): Promise<CheckOutcome> {
  let generations: SnapshotGeneration[];
  try {
    generations = await listSnapshotGenerations(ctx.restic, ctx.target, signalOf(ctx));
  } catch (error) {
    return resticOutcome(error, { doing: say('drill.doing_snapshots'), hadBackups: ctx.hadBackups });
  }
  const newest = generations[0];
  if (!newest) {
    return ctx.hadBackups ? fail(say('drill.open.emptied')) : unverified(say('drill.open.never'));
  }
  found.generation = newest;
  return pass(say('drill.open.ok', { generation: newest.generation, snapshot: newest.snapshot_id.slice(0, 8), time: newest.time, count: generations.length }));
}
