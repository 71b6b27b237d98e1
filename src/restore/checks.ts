// The checklist a restore reports: one entry per thing it verified, in the order it verified
// them. Names are stable (the GUI keys its checklist on them); details are one sentence for people.
export interface RestoreCheck {
  name: string;
  ok: boolean;
  detail: string;
}

/** A check that failed on purpose (what was found is in `detail`), as opposed to a crash. */
export class CheckFailed extends Error {
  constructor(readonly detail: string) {
    super(detail);
    this.name = 'CheckFailed';
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

  pass(name: string, detail: string): void {
    this.all.push({ name, ok: true, detail });
  }

  /** Records a failure and stops the restore. */
  fail(name: string, detail: string): never {
    const check = { name, ok: false, detail };
    this.all.push(check);
    throw new RestoreStopped(check);
  }

  /** Runs one check: its detail on success; a CheckFailed or any other error fails it and stops. */
  async run<T>(name: string, fn: () => Promise<{ detail: string; value: T }> | { detail: string; value: T }): Promise<T> {
    let outcome: { detail: string; value: T };
    try {
      outcome = await fn();
    } catch (err) {
      if (err instanceof RestoreStopped) throw err;
      return this.fail(name, err instanceof Error ? err.message : String(err));
    }
    this.pass(name, outcome.detail);
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
