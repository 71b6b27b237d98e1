// The network listener could not start (its port taken, not allowed): one sentence with the fix.
// A file of its own, so the CLI can name it without loading the listener.
export class LanUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LanUnavailableError';
  }
}
