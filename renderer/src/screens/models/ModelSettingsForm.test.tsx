import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, test } from 'vitest';
import { makeQueryClient } from '../../api/query-client';
import type { ModelInfo } from './api';
import { ModelSettingsForm } from './ModelSettingsForm';

afterEach(cleanup);

const base = (id: string, pulled: boolean): ModelInfo => ({
  id,
  path: `/models/${id}.gguf`,
  size_bytes: 2 * 1024 ** 3,
  sha256: 'ab'.repeat(32),
  status: 'available',
  created: 1_800_000_000,
  object: 'model',
  owned_by: 'local',
  format: 'gguf',
  source: pulled ? { uri: `hf:o/r/${id}.gguf`, revision: 'abc' } : null,
  backup: 'include',
  settings: { context_size: 4096, gpu_layers: 'auto', temperature: null, max_output_tokens: null, trained_context: 32768 },
});

function renderForm(models: ModelInfo[]) {
  return render(
    <QueryClientProvider client={makeQueryClient()}>
      <ModelSettingsForm models={models} />
    </QueryClientProvider>,
  );
}

describe('ModelSettingsForm', () => {
  test('says the trained context, shows the saved values, and offers the backup choice only for a pulled model', () => {
    renderForm([base('added', false), base('pulled', true)]);
    expect(screen.getByText(/This model was trained for 32768, the most it can use\./)).toBeTruthy();
    expect(screen.getByTestId<HTMLInputElement>('set-context').value).toBe('4096');
    expect(screen.queryByTestId('backup-source')).toBeNull();
    fireEvent.change(screen.getByTestId('settings-model'), { target: { value: 'pulled' } });
    expect(screen.getByTestId('model-settings-pulled').textContent).toMatch(/saves 2 GB per repository; a restore downloads it again/);
    expect(screen.getByTestId('model-settings-pulled').textContent).toContain('hf:o/r/pulled.gguf');
  });

  test('GPU layers other than auto or a whole number are refused where they are typed', () => {
    renderForm([base('added', false)]);
    fireEvent.change(screen.getByPlaceholderText('auto'), { target: { value: 'lots' } });
    fireEvent.click(screen.getByTestId('settings-save'));
    expect(screen.getByText('Type “auto” or a whole number.')).toBeTruthy();
  });
});
