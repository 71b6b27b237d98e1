// Server validation errors name the field they are about (ApiError.param, e.g. "url" or
// "options.region"): forms show such an error next to that field, and any other error once, at
// the top of the form. These two functions make that split.
import { ApiError } from './http';

/** The message of a 400 about one of `params`, or null. */
export function errorForParams(error: unknown, params: readonly string[]): string | null {
  if (!(error instanceof ApiError) || error.status !== 400 || error.param === null) return null;
  return params.includes(error.param) ? error.message : null;
}

/** The error unless it belongs next to one of the form's fields (then the field shows it). */
export function unplacedError(error: unknown, params: readonly string[]): unknown {
  if (error === null || error === undefined) return null;
  return errorForParams(error, params) === null ? error : null;
}
