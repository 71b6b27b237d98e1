// In-process fan-out of committed events to live listeners (SSE streams, waiting foreground
// requests). Only the ledger publishes, and only after the transaction that wrote the events.
import type { TaskEvent } from './types.js';

export type EventListener = (event: TaskEvent) => void;

export class EventHub {
  private readonly listeners = new Map<string, Set<EventListener>>();

  subscribe(taskId: string, listener: EventListener): () => void {
    let set = this.listeners.get(taskId);
    if (!set) {
      set = new Set();
      this.listeners.set(taskId, set);
    }
    set.add(listener);
    return () => {
      const current = this.listeners.get(taskId);
      current?.delete(listener);
      if (current && current.size === 0) this.listeners.delete(taskId);
    };
  }

  publish(events: readonly TaskEvent[]): void {
    for (const event of events) {
      const set = this.listeners.get(event.task_id);
      if (!set) continue;
      for (const listener of [...set]) listener(event);
    }
  }

  listenerCount(): number {
    let n = 0;
    for (const set of this.listeners.values()) n += set.size;
    return n;
  }
}
