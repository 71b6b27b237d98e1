// The schedule form's error placement, against simulated server answers (jsdom has no server; the
// e2e test does the real round trip).
import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { makeQueryClient } from '../../api/query-client';
import { setLanguage } from '../../i18n/i18n';
import { draftFrom, patchFrom } from './draft';
import { ScheduleForm } from './ScheduleForm';
import { Settings } from './api';

// Every setting, the rest at their defaults, as GET /admin/settings answers.
const SAVED: Settings = Settings.parse({ backup_interval_hours: 6, backup_paused: false, drill_paused: false, default_on_restart: 'fail' });

function answer(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}
const invalid = (param: string | null, message: string) => ({ error: { type: 'invalid_request_error', code: null, message, param } });

/** Renders the form with fetch answering PATCH with `reply`; returns the bodies it was sent. */
function renderWith(reply: Response): { sent: unknown[] } {
  const sent: unknown[] = [];
  vi.stubGlobal('fetch', (_url: string, init?: RequestInit) => {
    sent.push(typeof init?.body === 'string' ? JSON.parse(init.body) : null);
    return Promise.resolve(reply.clone());
  });
  render(
    <QueryClientProvider client={makeQueryClient()}>
      <ScheduleForm saved={SAVED} />
    </QueryClientProvider>,
  );
  return { sent };
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  setLanguage('en');
});

describe('settings form: where errors are shown (simulated server answers)', () => {
  test('an error the server ties to backup_interval_hours is shown under that field, linked to it, and not for the form', async () => {
    const { sent } = renderWith(
      answer(400, invalid('backup_interval_hours', 'Invalid value for backup_interval_hours: Number must be greater than or equal to 1.')),
    );
    const input = screen.getByLabelText('Hours between backups');
    fireEvent.change(input, { target: { value: '0' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    const note = await screen.findByText('Enter a whole number of hours from 1 to 168 (one week).');
    expect(sent).toEqual([{ backup_interval_hours: 0 }]);
    expect(note.id).toBe('settings-backup_interval_hours-error');
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(input.getAttribute('aria-describedby')?.split(' ')).toContain(note.id);
    // The field's own container holds it; no form-level error note.
    expect(input.closest('.field')?.contains(note)).toBe(true);
    expect(document.querySelector('.error-note')).toBeNull();
  });

  test('an error on the checkbox field is placed beside the checkbox with the server sentence', async () => {
    renderWith(answer(400, invalid('drill_paused', 'Invalid value for drill_paused: Expected boolean, received string.')));
    fireEvent.click(screen.getByLabelText('Pause scheduled restore drills'));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    const note = await screen.findByText(/Expected boolean/);
    expect(screen.getByLabelText('Pause scheduled restore drills').closest('.field')?.contains(note)).toBe(true);
    expect(screen.getByLabelText('Hours between backups').getAttribute('aria-invalid')).toBeNull();
  });

  test('an error naming no field of the form, or a server failure, is shown once for the form', async () => {
    renderWith(answer(409, { error: { type: 'conflict_error', code: 'busy', message: 'Settings are being changed; try again.', param: null } }));
    fireEvent.change(screen.getByLabelText('Hours between backups'), { target: { value: '12' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    const alert = await screen.findByText('Settings are being changed; try again.');
    expect(alert.closest('.error-note')).not.toBeNull();
    expect(document.querySelectorAll('.field-error')).toHaveLength(0);
  });

  test('a save that succeeds says so; nothing changed sends nothing', async () => {
    const { sent } = renderWith(answer(200, { ...SAVED, backup_interval_hours: 12 }));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Nothing to save: no setting was changed.')).toBeTruthy();
    expect(sent).toEqual([]);
    fireEvent.change(screen.getByLabelText('Hours between backups'), { target: { value: '12' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.getByTestId('settings-save-state').textContent).toBe('Saved.'));
    expect(sent).toEqual([{ backup_interval_hours: 12 }]);
  });

  test('in Arabic the field note is Arabic', async () => {
    setLanguage('ar');
    renderWith(answer(400, invalid('backup_interval_hours', 'Invalid value for backup_interval_hours.')));
    fireEvent.change(screen.getByLabelText('عدد الساعات بين النسخ الاحتياطية'), { target: { value: '999' } });
    fireEvent.click(screen.getByRole('button', { name: 'حفظ' }));
    const n = (v: number) => new Intl.NumberFormat('ar').format(v);
    expect(await screen.findByText(`أدخل عددًا صحيحًا من الساعات بين ${n(1)} و${n(168)} (أسبوع).`)).toBeTruthy();
  });
});

describe('the PATCH body', () => {
  const base = draftFrom(SAVED);
  test('only changed fields; a blank or non-number interval goes as null for the server to name', () => {
    expect(patchFrom({ ...base, backup_paused: true, default_on_restart: 'resume' }, SAVED)).toEqual({ backup_paused: true, default_on_restart: 'resume' });
    expect(patchFrom({ ...base, backup_interval_hours: ' ' }, SAVED)).toEqual({ backup_interval_hours: null });
    expect(patchFrom({ ...base, backup_interval_hours: '2.5' }, SAVED)).toEqual({ backup_interval_hours: 2.5 });
  });
  test('a daily time is sent as typed; going back to the interval clears it; the holds are their own fields', () => {
    expect(patchFrom({ ...base, backup_when: 'daily', backup_time_of_day: '03:15' }, SAVED)).toEqual({ backup_time_of_day: '03:15' });
    expect(patchFrom({ ...base, backup_when: 'daily', backup_time_of_day: '' }, SAVED)).toEqual({ backup_time_of_day: '' });
    const daily = Settings.parse({ ...SAVED, backup_time_of_day: '03:15' });
    expect(draftFrom(daily).backup_when).toBe('daily');
    expect(patchFrom({ ...draftFrom(daily), backup_when: 'interval' }, daily)).toEqual({ backup_time_of_day: null });
    expect(patchFrom({ ...base, backup_skip_on_battery: true, backup_skip_on_metered: true }, SAVED)).toEqual({
      backup_skip_on_battery: true,
      backup_skip_on_metered: true,
    });
  });
});
