// Live state for the GUI: the long-running jobs of this folder (backup, drill, restore, the key
// rotations) publish progress and their end here, and GET /admin/events streams it as SSE. Nothing here is stored:
// a client that connects late reads the current state from the status routes first.
export type AdminEventType =
  | 'backup.progress'
  | 'backup.finished'
  | 'drill.progress'
  | 'drill.finished'
  | 'restore.progress'
  | 'restore.finished'
  // A generation's store being read out of its repository to look inside it (history/).
  | 'generation.progress'
  // Responses were brought back from a generation into the live data.
  | 'history.changed'
  | 'passphrase.rotated'
  | 'vault.rotated'
  | 'alerts.changed'
  // A client paired, was made or was revoked (the GUI's client list refreshes; no token in it).
  | 'clients.changed'
  // The network listener went on or off, or its certificate changed (appliance/lan/).
  | 'lan.changed'
  // A model download (jobs/pulls.ts): its bytes, and its end (registered, failed or cancelled).
  | 'pull.progress'
  | 'pull.finished'
  // A recorded run (backup, drill, restore: runs.ts) ended; its row, with `run_id`.
  | 'run.finished';

export interface AdminEvent {
  /** Increases by one per event in this process; an SSE client may use it as Last-Event-ID. */
  id: number;
  type: AdminEventType;
  /** Unix ms. */
  at: number;
  data: Record<string, unknown>;
}

import { systemClock, type Clock } from '../clock.js';

export type AdminEventListener = (event: AdminEvent) => void;

export class AdminEvents {
  private next = 1;
  private readonly listeners = new Set<AdminEventListener>();

  constructor(private readonly clock: Clock = systemClock) {}

  publish(type: AdminEventType, data: Record<string, unknown>): AdminEvent {
    const event: AdminEvent = { id: this.next++, type, at: this.clock.now(), data };
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
