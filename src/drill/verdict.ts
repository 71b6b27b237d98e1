// What a drill answers: each check passes, fails (damage found) or is unverified (it could not
// complete: no evidence of damage, no proof either), and the drill's verdict is the worst of them.
// The exit codes are the CLI contract: 0 PASS, 1 FAIL, 2 UNVERIFIED.
import type { Said, Spoken } from '../contract/said.js';

export type Verdict = 'PASS' | 'FAIL' | 'UNVERIFIED';
export type CheckStatus = 'pass' | 'fail' | 'unverified';
export type DrillKind = 'daily' | 'deep';

export interface CheckOutcome extends Said {
  status: CheckStatus;
  /** One sentence a person can act on, in English (`code` and `params` let the GUI word it); never a secret. */
  detail: string;
}

export interface DrillCheck extends CheckOutcome {
  /** `<repo>:<check>` (`local:vault:decrypt`), or a name of its own for what is not a repository. */
  name: string;
}

export const pass = (said: Spoken): CheckOutcome => ({ status: 'pass', ...said });
export const fail = (said: Spoken): CheckOutcome => ({ status: 'fail', ...said });
export const unverified = (said: Spoken): CheckOutcome => ({ status: 'unverified', ...said });

/** FAIL beats UNVERIFIED beats PASS. No check at all proves nothing, so that is UNVERIFIED too. */
export function verdictOf(checks: readonly CheckOutcome[]): Verdict {
  if (checks.some((c) => c.status === 'fail')) return 'FAIL';
  if (checks.length === 0 || checks.some((c) => c.status === 'unverified')) return 'UNVERIFIED';
  return 'PASS';
}

export function exitCodeOf(verdict: Verdict): 0 | 1 | 2 {
  return verdict === 'PASS' ? 0 : verdict === 'FAIL' ? 1 : 2;
}
