import { describe, expect, test } from 'vitest';
import { ApiError } from '../api/http';
import { errorFor, formError, placeError } from './param-errors';

const bad = (param: string | null) => new ApiError(400, 'invalid_request_error', null, `bad ${param ?? 'body'}`, param);

describe('placing an API error in a form', () => {
  test('an error naming one of the fields goes beside it and not to the form', () => {
    const placed = placeError(bad('backup_interval_hours'), ['backup_interval_hours', 'backup_paused']);
    expect(errorFor(placed, 'backup_interval_hours')).toBeInstanceOf(ApiError);
    expect(errorFor(placed, 'backup_paused')).toBeNull();
    expect(formError(placed)).toBeNull();
  });

  test('a nested param belongs to its top-level field', () => {
    expect(placeError(bad('options.region'), ['options'])?.field).toBe('options');
  });

  test('an error naming no field of this form, no param, or not from the API is shown for the whole form', () => {
    for (const error of [bad('retention_days'), bad(null), new Error('boom')]) {
      const placed = placeError(error, ['backup_interval_hours']);
      expect(formError(placed)).toBe(error);
      expect(errorFor(placed, 'backup_interval_hours')).toBeNull();
    }
    expect(placeError(null, ['x'])).toBeNull();
  });
});
