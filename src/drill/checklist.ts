// The checks of one drill as they happen: each runs under its name, reports progress before it
// starts, and an unexpected exception becomes "unverified" (something broke in Sanad or the
// machine, which is no evidence that the backup is damaged). A check that cannot run because an
// earlier one did not is listed as unverified with the reason, so the checklist is always whole.
import { say } from '../contract/said/index.js';
import { errorParam, type Said } from '../contract/said.js';
import { unverified, type CheckOutcome, type DrillCheck } from './verdict.js';

export interface DrillProgress {
  /** The repository being checked, or null for a check of its own (the offsite copy). */
  repo: string | null;
  check: string;
  /** 1-based position of this check among all planned ones. */
  index: number;
  total: number;
}

export class Checklist {
  readonly checks: DrillCheck[] = [];
  private index = 0;

  constructor(
    private readonly total: number,
    private readonly onProgress: (p: DrillProgress) => void = () => undefined,
  ) {}

  async run(repo: string | null, name: string, fn: () => Promise<CheckOutcome> | CheckOutcome): Promise<CheckOutcome> {
    const full = repo === null ? name : `${repo}:${name}`;
    this.index++;
    try {
      this.onProgress({ repo, check: full, index: this.index, total: Math.max(this.total, this.index) });
    } catch {
      // A broken progress listener must not stop the drill.
    }
    let outcome: CheckOutcome;
    try {
      outcome = await fn();
    } catch (error) {
      outcome = unverified(say('drill.check_crashed', { check: name, error: errorParam(error) }));
    }
    this.checks.push({ name: full, ...outcome });
    return outcome;
  }

  /** The FAILs of one repository turned UNVERIFIED, with the reason appended (see repo-drill.ts). */
  downgradeFailures(repo: string, why: Said): number {
    let n = 0;
    for (const c of this.checks) {
      if (c.status !== 'fail' || !c.name.startsWith(`${repo}:`)) continue;
      const downgraded = say('drill.downgraded', { found: [{ code: c.code, params: c.params }], why: [why] });
      c.status = 'unverified';
      // The English sentence of what was found ends in a full stop; the "but" goes inside it.
      c.detail = downgraded.detail.replace(/\.; but /, '; but ');
      c.code = downgraded.code;
      c.params = downgraded.params;
      n++;
    }
    return n;
  }

  skip(repo: string | null, name: string, why: Said): void {
    this.index++;
    this.checks.push({ name: repo === null ? name : `${repo}:${name}`, ...unverified(say('drill.not_run', { why: [why] })) });
  }
}
