import { QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, test } from 'vitest';
import { applyLiveEvent } from '../../api/live-events';
import { OPEN_RUNS_KEY, useOpenRun } from '../../api/open-runs';
import { makeQueryClient } from '../../api/query-client';
import { ProgressBar } from '../../components/ProgressBar';
import { setLanguage, useStrings } from '../../i18n/i18n';
import { backupProgressValue, progressStrings, type ProgressT } from './progress';

afterEach(() => {
  cleanup();
  setLanguage('en');
});

/** A `t` that shows which key and values were asked for. */
const t: ProgressT = (key, vars) => (vars ? `${key}:${JSON.stringify(vars)}` : key);

describe('backup progress: event data to ProgressBar values', () => {
  test('an upload report: restic percent_done is the fraction, with files and bytes and the repository', () => {
    const v = backupProgressValue(
      { phase: 'upload', repository: 'local', percent: 0.25, files_done: 1, total_files: 4, bytes_done: 1024, total_bytes: 4096 },
      t,
    );
    expect(v).toEqual({ fraction: 0.25, step: 'uploading:{"repo":"local"}', filesDone: 1, filesTotal: 4, bytesDone: 1024, bytesTotal: 4096 });
  });

  test('making the generation has no total: indeterminate, with the step in words (unknown steps get a generic one)', () => {
    expect(backupProgressValue({ phase: 'generation', step: 'copying_store', percent: 0, total_files: 0 }, t)).toEqual({
      fraction: null,
      step: 'copying_store',
    });
    expect(backupProgressValue({ phase: 'generation', step: 'something_new' }, t)).toEqual({ fraction: null, step: 'working' });
  });

  test('no percent but bytes: the fraction comes from the bytes; no totals: no made-up counts', () => {
    expect(backupProgressValue({ phase: 'upload', repository: 'r2', bytes_done: 50, total_bytes: 200 }, t)?.fraction).toBe(0.25);
    expect(backupProgressValue({ phase: 'upload', repository: 'r2' }, t)).toEqual({ fraction: null, step: 'uploading:{"repo":"r2"}' });
  });

  test('nothing or something else is no progress', () => {
    expect(backupProgressValue(null, t)).toBeNull();
    expect(backupProgressValue(undefined, t)).toBeNull();
    expect(backupProgressValue({ phase: 'restoring', percent: 0.5 }, t)).toBeNull();
  });

  test('run events drive the bar through the open runs in the query cache, and the end clears it', async () => {
    const client = makeQueryClient();
    // As read from GET /admin/runs?open=true when nothing runs (no server here: kept, not fetched).
    client.setQueryDefaults(OPEN_RUNS_KEY, { staleTime: Infinity });
    client.setQueryData(OPEN_RUNS_KEY, []);
    function Bar() {
      const tp = useStrings(progressStrings).t;
      const value = backupProgressValue(useOpenRun('backup')?.progress, tp);
      return value ? <ProgressBar label="Backup" value={value} /> : <p>idle</p>;
    }
    render(
      <QueryClientProvider client={client}>
        <Bar />
      </QueryClientProvider>,
    );
    expect(await screen.findByText('idle')).toBeTruthy();
    const row = {
      run_id: 1,
      id: 1,
      kind: 'backup' as const,
      trigger: 'manual',
      error: null,
      generation: null,
      started_at: 0,
      ended_at: null,
      waiting_for: [],
    };
    const progress = { phase: 'upload' as const, repository: 'local', percent: 0.5, files_done: 2, total_files: 4, bytes_done: 2048, total_bytes: 4096 };
    act(() => applyLiveEvent(client, { id: 1, type: 'run.updated', at: 0, data: { ...row, status: 'running', progress } }));
    expect((await screen.findByRole('progressbar', { name: 'Backup' })).getAttribute('value')).toBe('0.5');
    expect(screen.getByText('Sending to “local”')).toBeTruthy();
    expect(screen.getByText('2 of 4 files')).toBeTruthy();
    act(() => applyLiveEvent(client, { id: 2, type: 'run.finished', at: 0, data: { ...row, status: 'ok', ended_at: 1, progress: null } }));
    expect(await screen.findByText('idle')).toBeTruthy();
    expect(screen.queryByRole('progressbar')).toBeNull();
  });
});
