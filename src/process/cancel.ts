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

/** Whether this signal was aborted by a person's cancel (not a stop). */
export function cancelledByPerson(signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true && signal.reason instanceof CancelledByPersonError;
}
