import { QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, test } from 'vitest';
import { applyLiveEvent } from '../../api/live-events';
import { OPEN_RUNS_KEY } from '../../api/open-runs';
import { makeQueryClient } from '../../api/query-client';
import { formatPercent } from '../../i18n/format';
import { setLanguage } from '../../i18n/i18n';
import type { Run } from '../../../../src/contract/runs';
import { RunningNow, runFraction } from './RunningNow';

afterEach(() => {
  cleanup();
  setLanguage('en');
});

const run = (id: number, kind: Run['kind'], status: Run['status'], progress: Run['progress'] = null): Run => ({
  id,
  kind,
  trigger: 'manual',
  status,
  error: null,
  generation: null,
  started_at: 0,
  ended_at: null,
  progress,
  waiting_for: status === 'queued' ? ['backup'] : [],
});

/** The card over open runs kept in the cache (no server here: kept, never fetched). */
function renderWith(runs: Run[]) {
  const client = makeQueryClient();
  client.setQueryDefaults(OPEN_RUNS_KEY, { staleTime: Infinity });
  client.setQueryData(OPEN_RUNS_KEY, runs);
  render(
    <QueryClientProvider client={client}>
      <RunningNow />
    </QueryClientProvider>,
  );
  return client;
}

describe('the Overview says what runs now', () => {
  test('nothing open: no card', () => {
    renderWith([]);
    expect(screen.queryByTestId('overview-running-now')).toBeNull();
  });

  test('a backup uploading, a drill waiting behind it, in words, with how far and a Cancel each; the end takes the row out', async () => {
    const upload = { phase: 'upload' as const, repository: 'local', percent: 0.42, files_done: 1, total_files: 3, bytes_done: 10, total_bytes: 30 };
    const client = renderWith([run(8, 'drill', 'queued'), run(7, 'backup', 'running', upload)]);
    expect(screen.getByTestId('running-backup').textContent).toBe('Backup running, 42% done Cancel');
    expect(screen.getByRole('button', { name: 'Cancel: Backup' })).toBeTruthy();
    expect(screen.getByTestId('running-drill').textContent).toBe('Restore drill waiting for the work before it to finish Cancel');
    expect(screen.getByRole('link', { name: 'Backup' }).getAttribute('href')).toBe('#/backups');
    act(() => applyLiveEvent(client, { id: 1, type: 'run.finished', at: 0, data: { ...run(7, 'backup', 'ok'), run_id: 7 } }));
    await waitFor(() => expect(screen.queryByTestId('running-backup')).toBeNull());
    expect(screen.getByTestId('running-drill')).toBeTruthy();
  });

  test('in Arabic', () => {
    setLanguage('ar');
    renderWith([run(3, 'restore', 'running', { phase: 'restoring', percent: 0.5 })]);
    expect(screen.getByTestId('running-restore').textContent).toBe(`استعادة يعمل، أُنجز ${formatPercent('ar', 0.5)} إلغاء`);
  });

  test('how far: a drill by its checks done, a step with no measure is null', () => {
    expect(runFraction(run(1, 'drill', 'running', { check: 'local:repo:open', index: 3, total: 5 }))).toBe(0.4);
    expect(runFraction(run(1, 'backup', 'running', { phase: 'generation', step: 'hashing' }))).toBeNull();
    expect(runFraction(run(1, 'maintenance', 'running'))).toBeNull();
  });
});
