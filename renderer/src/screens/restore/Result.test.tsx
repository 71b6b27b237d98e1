import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { useReducer } from 'react';
import { afterEach, describe, expect, test } from 'vitest';
import { makeQueryClient } from '../../api/query-client';
import { setLanguage } from '../../i18n/i18n';
import { flowReducer, type FlowState, type RestoreOutcome } from './flow';
import { DoneStep } from './Result';

afterEach(() => {
  cleanup();
  setLanguage('en');
});

function doneWith(outcome: RestoreOutcome): FlowState {
  return {
    step: 'done',
    repo: 'local',
    passphrase: null,
    passphraseAttempt: 0,
    passphraseRefused: false,
    generation: 1_700_000_000,
    target: '/data/restored',
    targetCheck: { status: 'ok', target: '/data/restored', path: '/data/restored', state: 'absent' },
    keepClients: false,
    jobId: 1,
    startError: null,
    outcome,
    open: { status: 'idle' },
  };
}

/** DoneStep driven by the real reducer, as the screen drives it. */
function Harness({ initial }: { initial: FlowState }) {
  const [state, dispatch] = useReducer(flowReducer, initial);
  return (
    <>
      <p data-testid="step">{state.step}</p>
      <DoneStep state={state} dispatch={dispatch} />
    </>
  );
}

const renderDone = (outcome: RestoreOutcome) =>
  render(
    <QueryClientProvider client={makeQueryClient()}>
      <Harness initial={doneWith(outcome)} />
    </QueryClientProvider>,
  );

describe('the end of a restore', () => {
  test('a failed restore shows where it stopped, the checklist with the failure, no way to open it, and starts over', async () => {
    renderDone({
      ok: false,
      generation: 1_700_000_000,
      snapshotTime: '2026-12-01T10:00:00Z',
      repo: 'local',
      target: '/data/restored',
      checks: [
        { name: 'target:empty', ok: true, code: 'said.text', params: { text: 'absent' }, detail: 'absent' },
        {
          name: 'item:sanad.db',
          ok: false,
          code: 'said.text',
          params: { text: 'sha256 differs from the manifest' },
          detail: 'sha256 differs from the manifest',
        },
      ],
      error: 'item:sanad.db: sha256 differs; /data/restored was removed again.',
    });
    expect(screen.getByRole('heading', { name: 'The restore failed, and the folder was put back as it was.' })).toBeTruthy();
    expect(screen.getByText('It stopped at: Matches the backup (size and checksum): \u2068sanad.db\u2069.')).toBeTruthy();
    const items = within(screen.getByRole('list', { name: 'What was verified' })).getAllByRole('listitem');
    expect(items.map((i) => i.getAttribute('data-ok'))).toEqual(['true', 'false']);
    expect(await within(items[1]!).findByText('sha256 differs from the manifest')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Open the restored data' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(screen.getByTestId('step').textContent).toBe('repository');
  });

  test('a verified restore offers to open it, only after a confirmation that starts on Cancel', () => {
    renderDone({
      ok: true,
      generation: 1_700_000_000,
      snapshotTime: '2026-12-01T10:00:00Z',
      repo: 'local',
      target: '/data/restored',
      checks: [{ name: 'store:located', ok: true, code: 'said.text', params: { text: 'found' }, detail: 'found' }],
      error: null,
    });
    expect(screen.getByRole('heading', { name: 'Restored and verified.' })).toBeTruthy();
    // The summary first, in words; the rows behind Details, closed.
    const summary = screen.getByTestId('restore-summary');
    expect(summary.textContent).toContain('(generation 1700000000, from “\u2068local\u2069”) is now in \u2068/data/restored\u2069.');
    expect(summary.textContent).toContain(new Intl.DateTimeFormat('en', { dateStyle: 'medium' }).format(new Date('2026-12-01T10:00:00Z')).slice(0, 6));
    expect(summary.textContent).toContain('Verified: the 1 check passed');
    expect(screen.getByTestId('restore-details').hasAttribute('open')).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: 'Open the restored data' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Switch Sanad to the restored data?' });
    expect(within(dialog).getByText(/start again on \u2068\/data\/restored\u2069/)).toBeTruthy();
    expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Cancel' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(screen.getByRole('button', { name: 'Open the restored data' })).toBeTruthy();
  });
});
