// Opening a repository for a restore: this data dir's own passphrase first; when restic refuses
// it (a new machine, whose keychain holds a passphrase of its own), the recovery kit's, asked for
// once. Whatever opened the repository is what the restored data dir keeps as its passphrase.
import { say } from '../contract/said/index.js';
import type { RecordedCopy } from '../repository/backup-runs.js';
import type { ResticBinary, Restic, ResticRepo } from '../repository/restic/index.js';
import { ResticError } from '../repository/restic/index.js';
import { listSnapshotGenerations, type SnapshotGeneration } from './snapshot-generations.js';

export interface RepositorySource {
  repoName: string;
  binary: ResticBinary;
  /** The repository as restic needs it, with `passphrase`. */
  repoFor(passphrase: string): ResticRepo;
  /** This data dir's passphrase (from its keychain), when it has one. */
  knownPassphrase: string | null;
  /** The recovery kit's passphrase, asked for only when the known one is missing or refused. */
  askPassphrase?: () => Promise<string | null>;
  /** How this caller gives a passphrase, for the message when none worked ("send it as …"). */
  passphraseHint?: string;
  /** What this data dir recorded sending to the repository, newest first (a restore starts restic
   *  once with them); absent or empty on a new machine. */
  recorded?: RecordedCopy[];
  /** The full ids of every snapshot in the repository, read without restic (a local repository's
   *  `snapshots/` folder); null where that cannot be done. Records are only used when they account
   *  for every one of them, so "newest" still means the newest in the repository. */
  snapshotIds?: () => Promise<string[] | null>;
  /** This data dir's vault key: a restore of a generation that holds the same key need not dump it. */
  knownVaultKey?: Buffer | null;
}

export interface OpenedRepository {
  repo: ResticRepo;
  passphrase: string;
  /** Newest data first. */
  generations: SnapshotGeneration[];
}

export class PassphraseNeededError extends Error {
  constructor(repoName: string, refused: boolean, hint: string | undefined) {
    const how = hint ? ` (${hint})` : '';
    super(
      refused
        ? `This data dir's passphrase does not open the repository "${repoName}"; give the passphrase from its recovery kit${how}.`
        : `No passphrase is known for the repository "${repoName}"; give the passphrase from its recovery kit${how}.`,
    );
    this.name = 'PassphraseNeededError';
  }
}

export async function openRepository(restic: Restic, source: RepositorySource, signal?: AbortSignal): Promise<OpenedRepository> {
  const attempt = async (passphrase: string): Promise<OpenedRepository> => {
    const repo = source.repoFor(passphrase);
    return { repo, passphrase, generations: await listSnapshotGenerations(restic, repo, signal ? { signal } : {}) };
  };
  let refused = false;
  if (source.knownPassphrase) {
    try {
      return await attempt(source.knownPassphrase);
    } catch (err) {
      if (!(err instanceof ResticError && err.kind === 'wrong_password')) throw err;
      refused = true;
    }
  }
  const asked = (await source.askPassphrase?.())?.trim();
  if (!asked) throw new PassphraseNeededError(source.repoName, refused, source.passphraseHint);
  try {
    return await attempt(asked);
  } catch (err) {
    if (err instanceof ResticError && err.kind === 'wrong_password') {
      throw new ResticError('wrong_password', say('restic.wrong_password_given', { repo: source.repoName }));
    }
    throw err;
  }
}
