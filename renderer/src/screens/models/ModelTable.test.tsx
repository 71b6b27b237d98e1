import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, test } from 'vitest';
import { makeQueryClient } from '../../api/query-client';
import type { ModelInfo } from './api';
import { ModelTable } from './ModelTable';

afterEach(cleanup);

const SHA = 'ab'.repeat(32);
const model = (id: string, status: string): ModelInfo => ({
  id,
  path: `/models/${id}.gguf`,
  size_bytes: 4 * 1024 ** 3,
  sha256: SHA,
  status,
  created: 1_800_000_000,
  object: 'model',
  owned_by: 'local',
  format: 'gguf',
});

function renderTable(models: ModelInfo[] | undefined) {
  return render(
    <QueryClientProvider client={makeQueryClient()}>
      <ModelTable models={models} />
    </QueryClientProvider>,
  );
}

describe('ModelTable', () => {
  test('each on-disk status in words, with what to do when the file is missing or changed', () => {
    renderTable([model('ok', 'available'), model('gone', 'missing'), model('swapped', 'changed'), model('new', 'quarantined')]);
    const status = (id: string) => within(screen.getByTestId(`model-row-${id}`)).getByTestId('model-status').textContent;
    expect(status('ok')).toBe('Available');
    expect(status('gone')).toMatch(/^Missing.*Put it back, or remove the model and add it/);
    expect(status('swapped')).toMatch(/^Changed.*remove the model and add it again/);
    expect(status('new')).toBe('Unknown (quarantined)');
  });

  test('an embedding model is said to be for embeddings only; a generative one says nothing of it', () => {
    renderTable([
      { ...model('bge', 'available'), kind: 'embedding' },
      { ...model('qwen', 'available'), kind: 'generation' },
    ]);
    expect(within(screen.getByTestId('model-row-bge')).getByTestId('model-kind').textContent?.trim()).toBe('embeddings only');
    expect(within(screen.getByTestId('model-row-qwen')).queryByTestId('model-kind')).toBeNull();
  });

  test('size in the language’s units, fingerprint short with the whole value in its title', () => {
    renderTable([model('ok', 'available')]);
    const row = screen.getByTestId('model-row-ok');
    expect(row.textContent).toContain('4 GB');
    const short = within(row).getByTitle(SHA);
    expect(short.textContent).toBe(`${SHA.slice(0, 12)}…`);
  });

  test('in memory: what a loaded model takes and runs, with Unload; one not loaded offers Load now', () => {
    const loaded: ModelInfo = {
      ...model('warm', 'available'),
      loaded: { memory_bytes: 1.5 * 1024 ** 3, context_size: 8192, sequences: 4, busy: 2, last_tokens_per_second: 31.26, loaded_at: 1_800_000_000 },
    };
    renderTable([loaded, { ...model('cold', 'available'), loaded: null }, { ...model('gone', 'missing'), loaded: null }]);
    const memory = (id: string) => screen.getByTestId(`model-memory-${id}`);
    expect(memory('warm').textContent).toMatch(/1\.5 GB · 4 at once · context 8,192/);
    expect(memory('warm').textContent).toMatch(/2 running now · last answer 31\.3 tokens\/s/);
    expect(within(memory('warm')).getByTestId('model-unload-warm')).toBeTruthy();
    expect(memory('cold').textContent).toMatch(/Not loaded.*loads by itself on its first request/);
    expect(within(memory('cold')).getByTestId('model-load-cold').textContent).toBe('Load now');
    // A file that is not there cannot be loaded, so no button offers it.
    expect(within(memory('gone')).queryByTestId('model-load-gone')).toBeNull();
  });

  test('while loading, placeholder rows keep the table’s place; an empty list says what to do', () => {
    const { unmount } = renderTable(undefined);
    expect(document.querySelectorAll('.skeleton')).toHaveLength(2);
    unmount();
    renderTable([]);
    expect(screen.getByText(/No model is registered yet/)).toBeTruthy();
  });
});
