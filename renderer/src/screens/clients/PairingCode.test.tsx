import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { setLanguage } from '../../i18n/i18n';
import { countdownAt, formatCountdown, pairingDeadline } from './countdown';
import { PairingCode } from './PairingCode';

const T0 = 1_800_000_000_000;

function tick(ms: number): void {
  act(() => {
    vi.advanceTimersByTime(ms);
  });
}

describe('pairing countdown (pure)', () => {
  test('whole seconds left, rounded up; expired only at zero or after', () => {
    const deadline = pairingDeadline(T0, 600);
    expect(deadline).toBe(T0 + 600_000);
    expect(countdownAt(deadline, T0)).toEqual({ remainingS: 600, expired: false });
    expect(countdownAt(deadline, deadline - 200)).toEqual({ remainingS: 1, expired: false });
    expect(countdownAt(deadline, deadline)).toEqual({ remainingS: 0, expired: true });
    expect(countdownAt(deadline, deadline + 5000)).toEqual({ remainingS: 0, expired: true });
  });

  test('minutes and two-digit seconds, in Arabic digits in Arabic', () => {
    expect(formatCountdown('en', 545)).toBe('9:05');
    expect(formatCountdown('en', 3600)).toBe('60:00');
    expect(formatCountdown('en', 0)).toBe('0:00');
    expect(formatCountdown('ar', 545)).toBe(`${new Intl.NumberFormat('ar').format(9)}:${new Intl.NumberFormat('ar', { minimumIntegerDigits: 2 }).format(5)}`);
  });
});

describe('PairingCode', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: T0 });
  });
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
    setLanguage('en');
  });

  test('counts down each second and, at zero, shows the code expired and greyed, and stops its timer', () => {
    render(<PairingCode code="ABCD-EFGH" deadlineMs={T0 + 3000} />);
    expect(screen.getByTestId('pairing-code').textContent).toBe('ABCD-EFGH');
    expect(screen.getByRole('timer').textContent).toBe('Expires in 0:03');
    tick(1000);
    expect(screen.getByRole('timer').textContent).toBe('Expires in 0:02');
    tick(1000);
    expect(screen.getByRole('timer').textContent).toBe('Expires in 0:01');
    expect(screen.getByTestId('pairing-code-card').className).toBe('pairing-code');
    tick(1000);
    const card = screen.getByTestId('pairing-code-card');
    expect(card.className).toBe('pairing-code expired');
    expect(card.getAttribute('data-expired')).toBe('true');
    expect(screen.queryByRole('timer')).toBeNull();
    expect(screen.getByRole('status').textContent).toMatch(/expired/);
    expect(screen.queryByRole('button', { name: 'Copy the pairing code' })).toBeNull();
    expect(screen.getByTestId('pairing-code').textContent).toBe('ABCD-EFGH');
    expect(vi.getTimerCount()).toBe(0);
  });

  test('a code already past its deadline is expired from the first paint', () => {
    render(<PairingCode code="WXYZ-2345" deadlineMs={T0 - 1} />);
    expect(screen.getByTestId('pairing-code-card').getAttribute('data-expired')).toBe('true');
    expect(vi.getTimerCount()).toBe(0);
  });

  test('Arabic shows the countdown in Arabic digits and words', () => {
    setLanguage('ar');
    render(<PairingCode code="ABCD-EFGH" deadlineMs={T0 + 65_000} />);
    const n = (v: number, o?: Intl.NumberFormatOptions) => new Intl.NumberFormat('ar', o).format(v);
    expect(screen.getByRole('timer').textContent).toBe(`ينتهي خلال ${n(1)}:${n(5, { minimumIntegerDigits: 2 })}`);
  });
});
