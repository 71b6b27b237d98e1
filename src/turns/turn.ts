// One accepted model request, followed from its commit to its end: when completion began (a door
// sends its stream's headers only then, so whatever fails before is still an HTTP error), when it
// ended, and what happens when its client leaves (a foreground request is cancelled) or when its
// answer was not to be kept (`store: false` is forgotten once answered).
import { unixSeconds, type Clock } from '../clock.js';
import { errorEntry, isErrorCode } from '../contract/error-codes.js';
import type { DeletionRecorder } from '../tasks/retention.js';
import type { ReadableDB, WritableDB } from '../store/open.js';
import { cancelTask } from '../tasks/cancel.js';
import type { EventHub } from '../tasks/event-hub.js';
import { getTask } from '../tasks/queries.js';
import type { TaskLedger } from '../tasks/ledger.js';
import type { ResponseObject } from '../tasks/response-object.js';
import { deleteTerminalResponse } from '../tasks/retention.js';
import type { TaskRunner } from '../tasks/runner.js';
import { TERMINAL_EVENTS, type ResponseRow, type TaskRow } from '../tasks/types.js';
import { currentResponse } from './current-response.js';
import { TurnError } from './errors.js';

export interface TurnWorld {
  db: ReadableDB;
  writer: WritableDB;
  ledger: TaskLedger;
  runner: TaskRunner;
  hub: EventHub;
  deletions: DeletionRecorder;
  clock: Clock;
}

/** Events that say completion began: from here on, what happens is told inside the stream. */
const STARTED = new Set(['response.in_progress', 'response.output_text.delta']);

export class Turn {
  private began = false;
  private ended: TaskRow | null = null;
  private readonly waiters = new Set<{ ready: () => boolean; wake: () => void }>();
  private readonly unsubscribe: () => void;
  private forgotten = false;

  constructor(
    private readonly world: TurnWorld,
    readonly task: TaskRow,
    readonly response: ResponseRow,
    /** The response object as accepted (status queued): a background create's 202. */
    readonly accepted: ResponseObject,
    private readonly store: boolean,
    private readonly background: boolean,
  ) {
    // A background task is the client's to follow (its 202 is the answer): nothing here waits on it.
    if (background) {
      this.unsubscribe = () => undefined;
      return;
    }
    // Subscribed before the task is queued (Turns.accept), so no event can slip past.
    this.unsubscribe = world.hub.subscribe(task.id, (event) => {
      if (STARTED.has(event.type)) this.began = true;
      if (TERMINAL_EVENTS.includes(event.type)) {
        this.ended = getTask(this.world.db, task.id) ?? task;
        this.unsubscribe();
      }
      for (const w of [...this.waiters]) if (w.ready()) w.wake();
    });
  }

  private until(ready: () => boolean): Promise<void> {
    if (ready()) return Promise.resolve();
    return new Promise((resolve) => {
      const waiter = {
        ready,
        wake: (): void => {
          this.waiters.delete(waiter);
          resolve();
        },
      };
      this.waiters.add(waiter);
    });
  }

  /**
   * Resolves once completion began (or the task ended after it did, or was cancelled). A task that
   * failed before it generated anything (too long for the model, a conversation deleted meanwhile,
   * a model that would not load) rejects with that failure as a TurnError: the door answers it as
   * an HTTP error, before any stream header.
   */
  async started(): Promise<void> {
    await this.until(() => this.began || this.ended !== null);
    const ended = this.ended;
    if (this.began || ended === null || ended.status !== 'failed') return;
    // Answered as an error, never as a response: nothing of it is kept (as OpenAI keeps nothing of a 400).
    this.forget(true);
    const code = ended.error_code !== null && isErrorCode(ended.error_code) ? ended.error_code : 'engine_error';
    throw new TurnError(code, errorEntry(code).param, ended.error_message ?? 'The request failed before the model began; see the service log.');
  }

  /** The response once its task ended (a `store: false` one is forgotten right after it is read).
   *  Only for a foreground turn: a background one is followed by its client. */
  async finished(): Promise<ResponseObject> {
    if (this.background) throw new Error('internal: a background turn is not waited on');
    await this.until(() => this.ended !== null);
    const answer = currentResponse(this.world.db, this.ended ?? this.task);
    this.forget();
    return answer;
  }

  /** The client hung up: a foreground request is cancelled (true when this call cancelled it). */
  leave(): boolean {
    if (this.background || this.ended !== null) return false;
    const { writer, ledger, runner } = this.world;
    const outcome = cancelTask(writer, ledger, runner, this.task.id).outcome;
    return outcome === 'cancelled' || outcome === 'cancelling';
  }

  /** A `store: false` answer is kept only until it has been answered (then journalled as unstored). */
  forget(evenStored = false): void {
    if ((this.store && !evenStored) || this.forgotten || this.ended === null) return;
    this.forgotten = true;
    const { writer, deletions, clock } = this.world;
    deleteTerminalResponse(writer, this.response.id, deletions, unixSeconds(clock), 'unstored');
  }
}
