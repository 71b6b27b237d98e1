import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, test } from 'vitest';
import { setLanguage } from '../../i18n/i18n';
import { DEFAULT_SETTINGS, type ChatSettings } from './chat-settings';
import { SettingsPanel } from './SettingsPanel';

afterEach(() => {
  cleanup();
  setLanguage('en');
});

function panel() {
  const saved: Array<Partial<ChatSettings>> = [];
  render(<SettingsPanel settings={DEFAULT_SETTINGS} onSave={(p) => saved.push(p)} state="idle" />);
  const type = (id: string, value: string): void => {
    const input = screen.getByTestId(id);
    fireEvent.change(input, { target: { value } });
    fireEvent.blur(input);
  };
  return { saved, type };
}

describe('chat settings check what the server will check', () => {
  test('a temperature of 5 and max tokens of −3 are refused with the field named, and not saved', () => {
    const { saved, type } = panel();
    type('chat-temperature', '5');
    expect(screen.getByTestId('chat-temperature-problem').textContent).toBe('Temperature must be a number from 0 to 2, or empty; this was not saved.');
    expect(screen.getByTestId('chat-temperature').getAttribute('aria-invalid')).toBe('true');
    type('chat-max-tokens', '-3');
    expect(screen.getByTestId('chat-max-tokens-problem').textContent).toMatch(/^Maximum output tokens must be a whole number from 1 to 1,000,000/);
    type('chat-max-tokens', '2.5');
    expect(screen.getByTestId('chat-max-tokens-problem')).toBeTruthy();
    expect(saved).toEqual([]);
  });

  test('a value in range is saved and the problem goes; empty means the model’s own', () => {
    const { saved, type } = panel();
    type('chat-temperature', '5');
    type('chat-temperature', '0.7');
    expect(screen.queryByTestId('chat-temperature-problem')).toBeNull();
    type('chat-max-tokens', '');
    expect(saved).toEqual([{ temperature: 0.7 }, { maxOutputTokens: null }]);
  });

  test('in Arabic, worded with the Arabic label', () => {
    setLanguage('ar');
    const { type } = panel();
    type('chat-temperature', '9');
    expect(screen.getByTestId('chat-temperature-problem').textContent).toMatch(/^يجب أن تكون درجة الحرارة رقمًا من/);
  });
});
