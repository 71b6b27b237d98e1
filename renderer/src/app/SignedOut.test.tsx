import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, test } from 'vitest';
import { setLanguage } from '../i18n/i18n';
import { SignedOut } from './SignedOut';

afterEach(() => {
  cleanup();
  act(() => setLanguage('en'));
});

describe('the signed-out panel', () => {
  test('names the commands as left-to-right code, in English and inside Arabic', () => {
    for (const lng of ['en', 'ar'] as const) {
      act(() => setLanguage(lng));
      const { unmount } = render(<SignedOut />);
      const codes = [...screen.getByTestId('signed-out').querySelectorAll('code')];
      expect(codes.map((c) => [c.textContent, c.getAttribute('dir')])).toEqual([
        ['sanad login-link', 'ltr'],
        ['sanad serve', 'ltr'],
      ]);
      expect(screen.getByTestId('signed-out').textContent).not.toContain('\u0000');
      unmount();
    }
  });
});
