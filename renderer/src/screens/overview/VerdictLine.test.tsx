import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, test } from 'vitest';
import { formatNumber } from '../../i18n/format';
import { setLanguage } from '../../i18n/i18n';
import type { Verdict } from './verdict';
import { VerdictLine } from './VerdictLine';

const NOW = 1_700_000_000;
const risk: Verdict = {
  level: 'risk',
  accepted: 0,
  reasons: [
    { level: 'risk', code: 'no_backup' },
    { level: 'attention', code: 'kit_unconfirmed' },
  ],
};

afterEach(() => {
  cleanup();
  setLanguage('en');
});

describe('the verdict line', () => {
  test('words every reason after the level, in order', () => {
    render(<VerdictLine verdict={risk} failed={false} nowS={NOW} />);
    const line = screen.getByTestId('overview-verdict');
    expect(line.textContent).toBe('At risk: no backup has been made yet; the recovery kit is not confirmed');
    expect(line.getAttribute('data-level')).toBe('risk');
  });

  test('a stale backup names the repository and how long ago, and protected needs no reasons', () => {
    const stale: Verdict = { level: 'attention', accepted: 0, reasons: [{ level: 'attention', code: 'backup_stale', repo: 'r2', ageS: 2 * 86_400 }] };
    const { rerender } = render(<VerdictLine verdict={stale} failed={false} nowS={NOW} />);
    expect(screen.getByTestId('overview-verdict').textContent).toBe('Needs attention: the last good backup in “r2” was 2 days ago');
    rerender(<VerdictLine verdict={{ level: 'protected', reasons: [], accepted: 0 }} failed={false} nowS={NOW} />);
    expect(screen.getByTestId('overview-verdict').textContent).toBe('Your data is protected');
  });

  test('accepted warnings are said after the verdict, with the plural of the language', () => {
    const { rerender } = render(<VerdictLine verdict={{ level: 'protected', reasons: [], accepted: 1 }} failed={false} nowS={NOW} />);
    expect(screen.getByTestId('overview-verdict').textContent).toBe('Your data is protected (one warning accepted)');
    rerender(<VerdictLine verdict={{ level: 'protected', reasons: [], accepted: 3 }} failed={false} nowS={NOW} />);
    expect(screen.getByTestId('overview-verdict').textContent).toBe('Your data is protected (3 warnings accepted)');
    setLanguage('ar');
    rerender(<VerdictLine verdict={{ level: 'protected', reasons: [], accepted: 2 }} failed={false} nowS={NOW} />);
    expect(screen.getByTestId('overview-verdict').textContent).toMatch(/تحذيران مقبولان/);
    rerender(<VerdictLine verdict={{ level: 'protected', reasons: [], accepted: 3 }} failed={false} nowS={NOW} />);
    expect(screen.getByTestId('overview-verdict').textContent).toBe(`بياناتك محمية (${formatNumber('ar', 3)} تحذيرات مقبولة)`);
  });

  test('while loading it says it is checking (busy), and when an input failed it never claims safety', () => {
    const { rerender } = render(<VerdictLine verdict={null} failed={false} nowS={NOW} />);
    expect(screen.getByTestId('overview-verdict').getAttribute('aria-busy')).toBe('true');
    rerender(<VerdictLine verdict={{ level: 'protected', reasons: [], accepted: 0 }} failed nowS={NOW} />);
    expect(screen.getByTestId('overview-verdict').textContent).toMatch(/could not tell/);
    expect(screen.getByTestId('overview-verdict').getAttribute('data-level')).toBe('unknown');
  });

  test('Arabic words and separator', () => {
    setLanguage('ar');
    render(<VerdictLine verdict={risk} failed={false} nowS={NOW} />);
    expect(screen.getByTestId('overview-verdict').textContent).toBe('في خطر: لم تُنشأ أي نسخة احتياطية بعد؛ لم تُؤكَّد مجموعة الاسترداد');
  });
});
