import { describe, expect, it } from 'vitest';
import { firstBlank } from './blank-field';

describe('firstBlank', () => {
  const values: Record<'name' | 'location' | 'secret', string> = { name: 'offsite', location: '   ', secret: '' };
  it('names the first required field that is empty or only spaces, in the order given', () => {
    expect(firstBlank(['name', 'location', 'secret'], (f) => values[f])).toBe('location');
    expect(firstBlank(['secret', 'location'], (f) => values[f])).toBe('secret');
  });
  it('is null when every required field is filled', () => {
    expect(firstBlank(['name'], (f) => values[f])).toBeNull();
    expect(firstBlank([], (f: 'name') => values[f])).toBeNull();
  });
});
