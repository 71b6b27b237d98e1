// The pairing code's countdown, as pure functions (the hook in use-countdown.ts only supplies the
// time). The deadline is counted on this machine's clock from the moment the code was asked for:
// the server's `expires_at` is its own now + ttl_s, and its now is never earlier than our request,
// so the code is never shown valid after the server stopped accepting it, whatever the two clocks say.
import { formatNumber } from '../../i18n/format';
import type { Language } from '../../i18n/i18n';

export interface Countdown {
  /** Whole seconds left, rounded up (a code with 0.2 s left still shows 0:01). */
  remainingS: number;
  expired: boolean;
}

export function pairingDeadline(requestedAtMs: number, ttlS: number): number {
  return requestedAtMs + ttlS * 1000;
}

export function countdownAt(deadlineMs: number, nowMs: number): Countdown {
  const remainingS = Math.max(0, Math.ceil((deadlineMs - nowMs) / 1000));
  return { remainingS, expired: remainingS === 0 };
}

/** "9:05" / "٩:٠٥": minutes and two-digit seconds in the language's digits. */
export function formatCountdown(lng: Language, remainingS: number): string {
  const s = Math.max(0, Math.floor(remainingS));
  const minutes = formatNumber(lng, Math.floor(s / 60), { useGrouping: false });
  const seconds = formatNumber(lng, s % 60, { minimumIntegerDigits: 2 });
  return `${minutes}:${seconds}`;
}
