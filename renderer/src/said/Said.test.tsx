import { cleanup, render, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, test } from 'vitest';
import { say } from '../../../src/contract/said/index';
import { setLanguage } from '../i18n/i18n';
import { Said } from './Said';

afterEach(() => {
  cleanup();
  setLanguage('en');
});

const findCode = (container: HTMLElement): Promise<HTMLElement> =>
  waitFor(() => {
    const code = container.querySelector('code');
    if (!(code instanceof HTMLElement)) throw new Error(`no <code> in ${container.innerHTML}`);
    return code;
  });

describe('a saying in the GUI', () => {
  test('a command holding a parameter is one code element, the name inside it untranslated', async () => {
    for (const lng of ['en', 'ar'] as const) {
      setLanguage(lng);
      const { container } = render(<Said said={say('doctor.fix.repo_test', { repo: 'my nas' })} />);
      const code = await findCode(container);
      expect(code.textContent, lng).toBe('sanad repo test my nas');
      expect(code.getAttribute('dir')).toBe('ltr');
      cleanup();
    }
  });

  test('lengths of time read in the language, in minutes or hours', async () => {
    setLanguage('ar');
    const { container } = render(<Said said={say('doctor.backup_age', { age_seconds: 1500, target_seconds: 7200 })} />);
    const hours = new Intl.NumberFormat('ar', { style: 'unit', unit: 'hour', unitDisplay: 'short' }).format(2);
    const minutes = new Intl.NumberFormat('ar', { style: 'unit', unit: 'minute', unitDisplay: 'short' }).format(25);
    await waitFor(() => expect(container.textContent).toContain(hours));
    expect(container.textContent).toContain(minutes);
    expect(container.textContent).not.toMatch(/[A-Za-z]/);
  });
});
