// The checks of one repository, in order, each depending on what the earlier ones found:
// open (newest generation) → lock → manifest → database integrity and vault (one scratch dir,
// removed after) → deep: the rotating read of packs, the recheck of damaged subsets, the restore
// rehearsal. A check whose input is missing is listed as not run, so the checklist stays whole.
import { say } from '../contract/said/index.js';
import { errorParam, type Said, type Spoken } from '../contract/said.js';
import type { Repository } from '../repository/repositories.js';
import { toResticRepo } from '../repository/restic-target.js';
import type { ResticRepo } from '../repository/restic/index.js';
import type { SnapshotGeneration } from '../restore/snapshot-generations.js';
import type { Checklist } from './checklist.js';
import { checkManifest } from './checks/manifest.js';
import { checkReadData, checkRecheck } from './checks/read-data.js';
import { signalOf, type RepoContext } from './checks/repo-context.js';
import { checkRepoLock } from './checks/repo-lock.js';
import { checkRepoOpen } from './checks/repo-open.js';
import { checkRestoreRehearsal } from './checks/restore-rehearsal.js';
import { checkStores } from './checks/store-integrity.js';
import { checkVaultDecrypt } from './checks/vault-decrypt.js';
import type { DrillDeps } from './drill-deps.js';
import type { SubsetPlan } from './read-subset.js';
import { withScratch } from './scratch.js';
import { scratchFullSentence, unlessOutOfSpace } from './scratch-space.js';
import { isOutOfSpace } from '../store/disk.js';
import { unverified, type DrillKind } from './verdict.js';
import { folderAbsence } from '../repository/folder-target.js';
import { STORE_FILE, drillsDir } from '../files/data-dir-layout.js';
import { type Manifest } from '../repository/generation/manifest.js';

/** The check names of one repository, in order (without the `<repo>:` prefix). */
export function plannedChecks(kind: DrillKind, plan: SubsetPlan): string[] {
  const daily = ['repo:open', 'repo:lock', 'manifest', 'sqlite:integrity', 'vault:decrypt'];
  if (kind === 'daily') return daily;
  return [...daily, 'read-data', ...(plan.recheck.length > 0 ? ['read-data:recheck'] : []), 'restore:rehearsal'];
}

function contextFor(deps: DrillDeps, repo: Repository, signal: AbortSignal | undefined): RepoContext | { problem: Spoken } {
  if (deps.restic === null) return { problem: deps.resticProblem ?? say('restic.missing_binary') };
  // A folder whose disk is not connected cannot be read: not verified, and no restic started there.
  const absent = folderAbsence(repo);
  if (absent) return { problem: absent };
  let target: ResticRepo;
  try {
    target = toResticRepo(repo, deps.vault, deps.passphrase);
  } catch (error) {
    return { problem: say('drill.settings_unreadable', { repo: repo.name, error: errorParam(error) }) };
  }
  return { deps, restic: deps.restic, repo, target, hadBackups: repo.last_ok_at !== null, ...(signal ? { signal } : {}) };
}

export async function drillRepository(
  deps: DrillDeps,
  repo: Repository,
  kind: DrillKind,
  plan: SubsetPlan,
  list: Checklist,
  signal?: AbortSignal,
): Promise<void> {
  const names = plannedChecks(kind, plan);
  const skipAfter = (name: string, why: Said): void => {
    for (const n of names.slice(names.indexOf(name) + 1)) list.skip(repo.name, n, why);
  };
  const ctx = contextFor(deps, repo, signal);
  if ('problem' in ctx) {
    await list.run(repo.name, 'repo:open', () => unverified(ctx.problem));
    return skipAfter('repo:open', say('drill.why_not_opened'));
  }
  const found: { generation?: SnapshotGeneration; manifest?: Manifest; stores: Map<string, string> } = { stores: new Map() };
  const open = await list.run(repo.name, 'repo:open', () => checkRepoOpen(ctx, found));
  const g = found.generation;
  if (open.status !== 'pass' || !g) return skipAfter('repo:open', say('drill.why_no_generation'));
  const lock = await list.run(repo.name, 'repo:lock', () => checkRepoLock(ctx));
  if (lock.status !== 'pass') return skipAfter('repo:lock', say('drill.why_in_use'));
  const indexAtStart = await ctx.restic.listIds(ctx.target, 'index', signalOf(ctx)).catch(() => null);
  await runChecks(ctx, g, kind, plan, list, found);
  await confirmFailures(ctx, list, indexAtStart);
}

/**
 * A backup or a prune that wrote while the drill read (another machine's, or one that started after
 * the lock check) can make a pack vanish under a reader, which looks like damage. So a FAIL counts
 * only if the repository's index files are the same at the end as at the start; otherwise it is
 * UNVERIFIED, and the next drill tells.
 */
async function confirmFailures(ctx: RepoContext, list: Checklist, indexAtStart: string[] | null): Promise<void> {
  if (!list.checks.some((c) => c.status === 'fail' && c.name.startsWith(`${ctx.repo.name}:`))) return;
  const indexAtEnd = await ctx.restic.listIds(ctx.target, 'index', signalOf(ctx)).catch(() => null);
  const same = indexAtStart !== null && indexAtEnd !== null && indexAtStart.join() === indexAtEnd.join();
  if (same) return;
  const why = indexAtEnd === null || indexAtStart === null ? say('drill.why_index_unlisted') : say('drill.why_repo_changed');
  const n = list.downgradeFailures(ctx.repo.name, why);
  ctx.deps.logger.warn('drill failures not confirmed: the repository changed during the drill', { repo: ctx.repo.name, checks: n });
}

async function runChecks(
  ctx: RepoContext,
  g: SnapshotGeneration,
  kind: DrillKind,
  plan: SubsetPlan,
  list: Checklist,
  found: { manifest?: Manifest; stores: Map<string, string> },
): Promise<void> {
  const { deps, repo } = ctx;

  await list.run(repo.name, 'manifest', () => checkManifest(ctx, g, kind, found));
  const manifest = found.manifest;
  if (manifest) {
    const scratchChecks = ['sqlite:integrity', 'vault:decrypt'];
    try {
      await withScratch(deps.dataDir, async (scratch) => {
        await list.run(repo.name, 'sqlite:integrity', () => unlessOutOfSpace(scratch, () => checkStores(ctx, g, manifest, scratch, found)));
        const store = found.stores.get(STORE_FILE);
        if (store) await list.run(repo.name, 'vault:decrypt', () => checkVaultDecrypt(ctx, g, manifest, store));
        else list.skip(repo.name, 'vault:decrypt', say('drill.why_store_failed', { file: STORE_FILE }));
      });
    } catch (err) {
      // Not even the scratch folder could be made: nothing was checked, nothing proven wrong.
      if (!isOutOfSpace(err)) throw err;
      const why = scratchFullSentence(drillsDir(deps.dataDir));
      for (const n of scratchChecks) if (!list.checks.some((c) => c.name === `${repo.name}:${n}`)) await list.run(repo.name, n, () => unverified(why));
    }
  } else {
    for (const n of ['sqlite:integrity', 'vault:decrypt']) list.skip(repo.name, n, say('drill.why_no_manifest'));
  }
  if (kind === 'daily') return;
  await list.run(repo.name, 'read-data', () => checkReadData(ctx, plan));
  if (plan.recheck.length > 0) await list.run(repo.name, 'read-data:recheck', () => checkRecheck(ctx, plan));
  if (manifest) await list.run(repo.name, 'restore:rehearsal', () => unlessOutOfSpace(drillsDir(deps.dataDir), () => checkRestoreRehearsal(ctx, g, manifest)));
  else list.skip(repo.name, 'restore:rehearsal', say('drill.why_no_manifest'));
}
