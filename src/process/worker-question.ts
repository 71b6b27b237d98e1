// The question a worker body answers: its workerData, or, for a worker started ahead of its question
// (worker-call.ts, prestartWorkers), the first message it is sent. A worker body awaits this instead
// of reading workerData, so the same body serves both.
import { parentPort, workerData } from 'node:worker_threads';

/** workerData of a worker started before its question: the question comes as its first message. */
export const WAIT_FOR_QUESTION = 'sanad:wait-for-question';

export function workerQuestion(): Promise<unknown> {
  const port = parentPort;
  if (workerData !== WAIT_FOR_QUESTION || port === null) return Promise.resolve(workerData);
  return new Promise((resolve) => port.once('message', resolve));
}
