// A model request that cannot go on, for a reason the client can act on: a code of the contract's
// catalog (its HTTP status comes from there), the parameter at fault, one sentence. Every door
// answers it in its own error shape.
import type { ErrorCode } from '../contract/error-codes.js';

export class TurnError extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly param: string | null,
    message: string,
  ) {
    super(message);
    this.name = 'TurnError';
  }
}
