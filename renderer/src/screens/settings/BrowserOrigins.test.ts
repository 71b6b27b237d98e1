import { describe, expect, it } from 'vitest';
import { originsOf } from './BrowserOrigins';

describe('originsOf', () => {
  it('reads one origin a line, trims, drops a trailing slash and repeats', () => {
    expect(originsOf(' http://localhost:3000/\n\nhttps://app.example.com\nhttp://localhost:3000')).toEqual([
      'http://localhost:3000',
      'https://app.example.com',
    ]);
  });
  it('an empty draft allows none', () => {
    expect(originsOf('  \n ')).toEqual([]);
  });
  it('refuses anything that is not an origin: a path, another scheme, a bare host', () => {
    expect(originsOf('http://localhost:3000/app')).toBeNull();
    expect(originsOf('ftp://example.com')).toBeNull();
    expect(originsOf('localhost:3000')).toBeNull();
    expect(originsOf('*')).toBeNull();
  });
});
