// A run a person cancelled (POST /admin/runs/{id}/cancel, Cancel in the GUI, Ctrl-C in the CLI):
// the reason its job's signal is aborted with. The work and its record tell it from a stop of
// Sanad (Quit, a suspend), which leaves other traces: an interrupted run, an alert held for the
// retry. A person's cancel is no failure: it raises no alert and the run ends `cancelled`.
export class CancelledByPersonError extends Error {
  constructor() {
    super('Cancelled by you.');
    this.name = 'CancelledByPersonError';
  }
}

/** A run that reported no progress for too long (a restic that stopped answering, a disk that
 *  hangs): stopped by its watchdog, it fails with this sentence, naming the step it was at. */
export class StalledError extends Error {
  constructor(step: string, limitMs: number) {
    const span = limitMs < 120_000 ? `${Math.round(limitMs / 1000)} seconds` : `${Math.round(limitMs / 60_000)} minutes`;
    super(
      `Nothing moved for ${span} at the step "${step}", so it was stopped. Try again; if it stops at the same step again, check the disk or the repository it works on.`,
    );
    this.name = 'StalledError';
  }
}

/** Whether this signal was aborted by a person's cancel (not a stop). */
export function cancelledByPerson(signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true && signal.reason instanceof CancelledByPersonError;
}
