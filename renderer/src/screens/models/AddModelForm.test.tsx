import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, test } from 'vitest';
import { makeQueryClient } from '../../api/query-client';
import { AddModelForm } from './AddModelForm';

afterEach(() => {
  cleanup();
  delete window.sanadDesktop;
});

function renderForm() {
  return render(
    <QueryClientProvider client={makeQueryClient()}>
      <AddModelForm />
    </QueryClientProvider>,
  );
}

describe('AddModelForm', () => {
  test('in a browser there is no "Choose file…" button: only the path field', () => {
    renderForm();
    expect(screen.getByLabelText('Model file (GGUF)')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Choose file…' })).toBeNull();
  });

  test('in the desktop shell the native dialog fills the path (simulated desktop bridge)', async () => {
    window.sanadDesktop = {
      session: () => Promise.resolve({ url: 'http://127.0.0.1:1', loginCode: 'unused' }),
      pickModelFile: () => Promise.resolve('/models/llama 3.gguf'),
      pickFolder: () => Promise.resolve(null),
      platform: 'linux',
    };
    renderForm();
    fireEvent.click(screen.getByRole('button', { name: 'Choose file…' }));
    await waitFor(() => expect(screen.getByLabelText<HTMLInputElement>('Model file (GGUF)').value).toBe('/models/llama 3.gguf'));
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Add model' }).disabled).toBe(false);
  });
});
