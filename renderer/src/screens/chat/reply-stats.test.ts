import { describe, expect, test } from 'vitest';
import { measureReply } from './reply-stats';

describe('measureReply', () => {
  test('time to the first words from sending, and tokens per second from the first words to the end', () => {
    expect(measureReply(1000, 1400, 3400, 64)).toEqual({ firstTextMs: 400, tokensPerSecond: 32 });
  });

  test('what cannot be known is null, not a guess', () => {
    // A page that came back to a reply already being written did not see its first words arrive.
    expect(measureReply(1000, null, 3400, 64)).toEqual({ firstTextMs: null, tokensPerSecond: null });
    // An older pending turn has no sending time; a reply of one token, or written in an instant, has no rate.
    expect(measureReply(null, 1400, 3400, 64)).toEqual({ firstTextMs: null, tokensPerSecond: 32 });
    expect(measureReply(1000, 1400, 3400, 1).tokensPerSecond).toBeNull();
    expect(measureReply(1000, 1400, 1450, 20).tokensPerSecond).toBeNull();
    expect(measureReply(1000, 1400, 3400, null).tokensPerSecond).toBeNull();
  });
});
