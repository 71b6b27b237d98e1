// Where a form shows an API error: next to the field the server named (ApiError.param), or, when
// it named none of the form's fields, once for the whole form. Pure, so forms share one rule.
import { ApiError } from '../api/http';

export interface PlacedError {
  /** The form field the error belongs to, or null for the form as a whole. */
  field: string | null;
  error: unknown;
}

export function placeError(error: unknown, fields: readonly string[]): PlacedError | null {
  if (error === null || error === undefined) return null;
  if (error instanceof ApiError && error.param !== null) {
    // A nested param ("options.region") belongs to its top-level field.
    const top = error.param.split('.')[0] ?? error.param;
    if (fields.includes(top)) return { field: top, error };
  }
  return { field: null, error };
}

/** The error to show beside `field`, if it is the one the server named. */
export function errorFor(placed: PlacedError | null, field: string): unknown {
  return placed !== null && placed.field === field ? placed.error : null;
}

/** The error to show for the whole form, if no field claims it. */
export function formError(placed: PlacedError | null): unknown {
  return placed !== null && placed.field === null ? placed.error : null;
}
