// Live state for the GUI: the long-running jobs of this folder (backup, drill, restore, the key
// rotations) publish progress and their end here, and GET /admin/events streams it as SSE. Nothing here is stored:
// a client that connects late reads the current state from the status routes first. The events and
// their data are declared once, in src/contract/admin-events.ts.
import { AdminEvent as AdminEventSchema, type AdminEvent, type AdminEventData, type AdminEventType } from '../contract/admin-events.js';

export type { AdminEvent, AdminEventType };
import { systemClock, type Clock } from '../clock.js';

export type AdminEventListener = (event: AdminEvent) => void;

export class AdminEvents {
  private next = 1;
  /** Events that did not parse (none, unless a publisher has a bug; tests read it). */
  dropped = 0;
  private readonly listeners = new Set<AdminEventListener>();

  constructor(private readonly clock: Clock = systemClock) {}

  /** `data` is the contract's shape for `type` (src/contract/admin-events.ts), checked at build time;
   *  at run time the event is parsed once more with the contract's schema, so only what is declared
   *  crosses the wire. One that does not parse (a bug: NaN in a count) reaches no listener. */
  publish<T extends AdminEventType>(type: T, data: AdminEventData<T>): AdminEvent | null {
    const parsed = AdminEventSchema.safeParse({ id: this.next, type, at: this.clock.now(), data });
    if (!parsed.success) {
      this.dropped++;
      return null;
    }
    this.next++;
    const event = parsed.data;
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch {
        // A broken listener (a closed socket) must not stop the others or the operation.
      }
    }
    return event;
  }

  subscribe(listener: AdminEventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get listenerCount(): number {
    return this.listeners.size;
  }
}
