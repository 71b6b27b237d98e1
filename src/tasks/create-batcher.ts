// Group commit for new tasks. Creates that arrive while the event loop is busy are written under
// one commit (one fsync) on the next turn of the loop, and each caller's promise settles only after
// that commit: the 202 still follows the commit (LMSP §11.2), it just shares the fsync.
import type { Created, InTransaction, NewTask, TaskLedger } from './ledger.js';

interface Pending {
  input: NewTask;
  inSameTransaction: InTransaction | undefined;
  resolve: (created: Created) => void;
  reject: (err: Error) => void;
}

export class CreateBatcher {
  private pending: Pending[] = [];

  /** `later` schedules the commit: by default the next turn of the loop; the service passes
   *  DurableCommits.afterSync, so creates that arrive during an fsync share the next commit. */
  constructor(
    private readonly ledger: TaskLedger,
    private readonly later: (fn: () => void) => void = setImmediate,
  ) {}

  create(input: NewTask, inSameTransaction?: InTransaction): Promise<Created> {
    return new Promise((resolve, reject) => {
      this.pending.push({ input, inSameTransaction, resolve, reject });
      if (this.pending.length === 1) this.later(() => this.commit());
    });
  }

  private commit(): void {
    const batch = this.pending;
    this.pending = [];
    let results: Array<Created | Error>;
    try {
      results = this.ledger.createMany(batch);
    } catch (err) {
      const error = err instanceof Error ? err : new Error(String(err));
      for (const p of batch) p.reject(error);
      return;
    }
    batch.forEach((p, i) => {
      const r = results[i];
      if (r === undefined || r instanceof Error) p.reject(r ?? new Error('no result for a batched create'));
      else p.resolve(r);
    });
  }
}
