// How a restic failure during a drill reads as a check result. Damage restic itself reports (a pack
// whose hash is wrong, a blob that does not decrypt, a file the snapshot should hold and does not)
// is FAIL; a repository the passphrase we hold cannot open is FAIL too, because every backup in it
// is unreadable with what this machine has. Everything that only stopped the check from running
// (restic missing, the remote down, a cancel, an error restic does not explain) is UNVERIFIED.
import { say } from '../contract/said/index.js';
import { errorParam, type Said } from '../contract/said.js';
import { ResticError } from '../repository/restic/index.js';
import { fail, unverified, type CheckOutcome } from './verdict.js';

/** restic's words for damage, from check, restore and dump, in 0.14 and current releases. */
const DAMAGE =
  /repository contains errors|Pack ID does not match|ciphertext verification failed|decrypting blob .* failed|Load\(.*\) returned error|invalid data returned|not found in snapshot/i;

export function looksDamaged(stderr: readonly string[]): boolean {
  return DAMAGE.test(stderr.join('\n'));
}

export interface ResticOutcomeContext {
  /** What was being done, for the sentence: "Reading manifest.json". */
  doing: Said;
  /** Whether backups were ever made to this repository: then a missing repository is damage. */
  hadBackups: boolean;
}

export function resticOutcome(error: unknown, ctx: ResticOutcomeContext): CheckOutcome {
  if (!(error instanceof ResticError)) {
    return unverified(say('drill.could_not_run', { doing: [ctx.doing], error: errorParam(error) }));
  }
  switch (error.kind) {
    case 'wrong_password':
      return fail(say('drill.key_refused', { error: [error.said] }));
    case 'no_repo':
      return ctx.hadBackups ? fail(say('drill.repo_gone', { error: [error.said] })) : unverified(say('drill.no_backup_yet'));
    case 'failed': {
      // The line that names the damage ("…/sanad.db: ciphertext verification failed"), not the
      // closing "Fatal: There were 2 errors".
      const line = error.stderrTail.find((l) => DAMAGE.test(l));
      return line !== undefined
        ? fail(say('drill.found_damage', { doing: [ctx.doing], line: line.trim() }))
        : unverified(say('drill.restic_failed', { doing: [ctx.doing], error: [error.said] }));
    }
    default:
      return unverified(say('drill.restic_error', { error: [error.said] }));
  }
}
