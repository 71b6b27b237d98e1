// What the app asked of the stand-in, and what it asked that Electron itself would refuse. A
// refusal is thrown at the caller (as Electron throws) and also reported to the test at once, so
// an exception the app swallows still fails the test.
import type { Notice } from './protocol.js';

export const violations: string[] = [];

export function notify(notice: Notice): void {
  if (process.send !== undefined && process.connected) process.send(notice);
}

/** Records `message` as something Electron would reject and throws it. */
export function reject(message: string): never {
  violations.push(message);
  process.stderr.write(`stand-in Electron: ${message}\n`);
  notify({ notice: 'violation', message });
  throw new Error(message);
}

/** An Electron event object: a listener may call preventDefault(). */
export interface StandInEvent {
  preventDefault(): void;
  readonly defaultPrevented: boolean;
}

class EventBase implements StandInEvent {
  defaultPrevented = false;
  preventDefault(): void {
    this.defaultPrevented = true;
  }
}

export function standInEvent<T extends object>(extra: T): T & StandInEvent {
  return Object.assign(new EventBase(), extra);
}
