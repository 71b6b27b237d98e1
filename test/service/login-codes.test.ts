// The GUI's sign-in codes and sessions against a moved clock: a code works once and for ten
// minutes; a session ends after 12 idle hours, after 7 days whatever happens, and on sign-out.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock } from '../../src/clock.js';
import { CODE_TTL_MS, LoginCodes, SESSION_IDLE_MS, SESSION_MAX_MS } from '../../src/service/login-codes.js';

const H = 3_600_000;

test('a login code works once, and not after ten minutes; a new code voids the old one', () => {
  const clock = new ManualClock(1_800_000_000_000);
  const login = new LoginCodes(undefined, clock);
  const code = login.issue();
  assert.equal(login.redeem('wrong'), null);
  const s = login.redeem(code);
  assert.ok(s && s.token.length >= 40 && s.expiresAt === clock.now() + SESSION_MAX_MS);
  assert.equal(login.redeem(code), null, 'once');
  const late = login.issue();
  clock.advance(CODE_TTL_MS + 1);
  assert.equal(login.redeem(late), null, 'older than ten minutes');
  const old = login.issue();
  const fresh = login.issue();
  assert.equal(login.redeem(old), null, 'voided by the newer code');
  assert.ok(login.redeem(fresh));
  assert.ok(new LoginCodes('pending-code', clock).redeem('pending-code'), 'a code handed over before start works once');
});

test('a session ends after 12 idle hours, after 7 days even when used, and at sign-out', () => {
  const clock = new ManualClock(1_800_000_000_000);
  const login = new LoginCodes(undefined, clock);
  const idle = login.redeem(login.issue());
  const busy = login.redeem(login.issue());
  const out = login.redeem(login.issue());
  assert.ok(idle && busy && out);
  clock.advance(SESSION_IDLE_MS - 60_000);
  assert.equal(login.isSession(busy.token), true);
  assert.equal(login.isSession(out.token), true);
  login.endSession(out.token);
  assert.equal(login.isSession(out.token), false, 'signed out');
  clock.advance(120_000);
  assert.equal(login.isSession(idle.token), false, 'twelve hours and a minute without a request');
  // Used every hour, it still ends at the absolute limit.
  const fresh = login.redeem(login.issue());
  assert.ok(fresh);
  for (let t = 0; t < SESSION_MAX_MS; t += H) {
    assert.equal(login.isSession(fresh.token), true);
    clock.advance(H);
  }
  clock.advance(1);
  assert.equal(login.isSession(fresh.token), false, 'seven days at most');
});
