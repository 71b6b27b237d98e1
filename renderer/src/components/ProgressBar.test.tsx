import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, test } from 'vitest';
import { setLanguage } from '../i18n/i18n';
import { ProgressBar } from './ProgressBar';

afterEach(() => {
  cleanup();
  setLanguage('en');
});

describe('ProgressBar', () => {
  test('shows the fraction as a percent on a native progress element, with files and bytes', () => {
    render(<ProgressBar label="Backup" value={{ fraction: 0.42, filesDone: 3, filesTotal: 10, bytesDone: 1536, bytesTotal: 4096 }} />);
    const bar = screen.getByRole('progressbar', { name: 'Backup' });
    expect(bar.getAttribute('value')).toBe('0.42');
    expect(screen.getByText('42%')).toBeTruthy();
    expect(screen.getByText('3 of 10 files')).toBeTruthy();
    expect(screen.getByText(/1\.5 kB of 4 kB/)).toBeTruthy();
  });

  test('an unknown total is indeterminate, never a made-up percent', () => {
    render(<ProgressBar label="Drill" value={{ fraction: null }} />);
    const bar = screen.getByRole('progressbar', { name: 'Drill' });
    expect(bar.hasAttribute('value')).toBe(false);
    expect(screen.queryByText(/%/)).toBeNull();
  });

  test('values outside 0..1 are clamped; Arabic formats digits and words for the locale', () => {
    setLanguage('ar');
    render(<ProgressBar label="Backup" value={{ fraction: 1.7, filesDone: 2, filesTotal: 4 }} />);
    expect(screen.getByRole('progressbar', { name: 'Backup' }).getAttribute('value')).toBe('1');
    const n = (v: number) => new Intl.NumberFormat('ar').format(v);
    expect(screen.getByText(`${n(2)} من ${n(4)} ملفًا`)).toBeTruthy();
    expect(document.documentElement.dir).toBe('rtl');
  });
});
