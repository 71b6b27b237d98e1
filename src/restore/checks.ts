// The checklist a restore reports: one entry per thing it verified, in the order it verified
// them. Names are stable (the GUI keys its checklist on them); what each found is a saying (a code
// and its params, with the English sentence as `detail`), so the GUI words it in its language.
import { errorParam, type SaidParam, type Spoken } from '../contract/said.js';
import { say } from '../contract/said/index.js';

export interface RestoreCheck {
  name: string;
  ok: boolean;
  code: string;
  params: Record<string, SaidParam>;
  detail: string;
}

export function restoreCheck(name: string, ok: boolean, said: Spoken): RestoreCheck {
  return { name, ok, code: said.code, params: said.params, detail: said.detail };
}

/** An error as a saying: its own when it carries one (a CheckFailed, a ResticError), else its message. */
export function errorSaid(err: unknown): Spoken {
  if (err instanceof CheckFailed) return err.said;
  return say('restore.error', { error: errorParam(err) });
}

/** A check that failed on purpose (what was found is in `said`), as opposed to a crash. */
export class CheckFailed extends Error {
  constructor(readonly said: Spoken) {
    super(said.detail);
    this.name = 'CheckFailed';
  }

  get detail(): string {
    return this.said.detail;
  }
}

/** Thrown once a check has failed and been recorded: the restore stops there. */
export class RestoreStopped extends Error {
  constructor(readonly check: RestoreCheck) {
    super(`${check.name}: ${check.detail}`);
    this.name = 'RestoreStopped';
  }
}

export class CheckList {
  readonly all: RestoreCheck[] = [];

  pass(name: string, said: Spoken): void {
    this.all.push(restoreCheck(name, true, said));
  }

  /** Records a failure and stops the restore. */
  fail(name: string, said: Spoken): never {
    const check = restoreCheck(name, false, said);
    this.all.push(check);
    throw new RestoreStopped(check);
  }

  /** Runs one check: what it found on success; a CheckFailed or any other error fails it and stops. */
  async run<T>(name: string, fn: () => Promise<{ said: Spoken; value: T }> | { said: Spoken; value: T }): Promise<T> {
    let outcome: { said: Spoken; value: T };
    try {
      outcome = await fn();
    } catch (err) {
      if (err instanceof RestoreStopped) throw err;
      return this.fail(name, errorSaid(err));
    }
    this.pass(name, outcome.said);
    return outcome.value;
  }

  /** Takes over another list's checks, in order (an attempt's, once it counts). */
  adopt(other: CheckList): void {
    this.all.push(...other.all);
  }

  get ok(): boolean {
    return this.all.every((c) => c.ok);
  }

  firstFailure(): RestoreCheck | undefined {
    return this.all.find((c) => !c.ok);
  }
}
