// Prefixed ids that sort by creation time: `<prefix>_` + 10 chars of millisecond time + 16 random
// chars (Crockford base32, like ULID). Within one millisecond the random part is incremented, so
// ids made by one process are strictly increasing even in a tight loop.
import { systemClock } from './clock.js';
import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';

export type IdPrefix = 'resp' | 'task' | 'client' | 'msg' | 'model' | 'pair' | 'conv' | 'call' | 'req';

let lastTime = -1;
let lastRandom: number[] = [];

function encodeTime(ms: number): string {
  let out = '';
  let t = ms;
  for (let i = 0; i < 10; i++) {
    out = ALPHABET[t % 32] + out;
    t = Math.floor(t / 32);
  }
  return out;
}

function freshRandom(): number[] {
  return Array.from(randomBytes(16), (b) => b % 32);
}

function increment(digits: number[]): number[] {
  const next = digits.slice();
  for (let i = next.length - 1; i >= 0; i--) {
    const d = next[i] ?? 0;
    if (d < 31) {
      next[i] = d + 1;
      return next;
    }
    next[i] = 0;
  }
  return freshRandom(); // 32^16 ids in one ms cannot happen; wrap defensively
}

export function newId(prefix: IdPrefix, nowMs: number = systemClock.now()): string {
  if (nowMs <= lastTime) {
    lastRandom = increment(lastRandom);
  } else {
    lastTime = nowMs;
    lastRandom = freshRandom();
  }
  return `${prefix}_${encodeTime(lastTime)}${lastRandom.map((d) => ALPHABET[d]).join('')}`;
}
