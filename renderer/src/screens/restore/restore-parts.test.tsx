import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, test } from 'vitest';
import { ApiError } from '../../api/http';
import { i18next, setLanguage, useStrings } from '../../i18n/i18n';
import { restoreCheckLabel, restoreCheckStrings } from './check-names';
import { restoreProgressStrings, restoreProgressValue, type RestoreProgressT } from './progress';
import { RestoreChecklist } from './RestoreChecklist';
import { loginPath, probe, waitForRestart } from './wait-for-restart';

afterEach(() => {
  cleanup();
  setLanguage('en');
});

describe('restore checklist, progress and the wait for the restart', () => {
  test('the checklist names known checks in words (with their value) and unknown ones as they are', async () => {
    render(
      <RestoreChecklist
        checks={[
          { name: 'target:outside_live', ok: true, code: 'said.text', params: { text: '/x is apart from /live' }, detail: '/x is apart from /live' },
          { name: 'target:empty', ok: true, code: 'said.text', params: { text: '/x does not exist yet' }, detail: '/x does not exist yet' },
          { name: 'item:sanad.db', ok: true, code: 'said.text', params: { text: '12 kB, sha256 ok' }, detail: '12 kB, sha256 ok' },
          { name: 'models:tiny', ok: true, code: 'said.text', params: { text: 'at /x/models/tiny.gguf' }, detail: 'at /x/models/tiny.gguf' },
          { name: 'vault:decrypt', ok: false, code: 'said.text', params: { text: 'wrong key' }, detail: 'wrong key' },
          { name: 'future:check', ok: true, code: 'said.text', params: { text: 'new' }, detail: 'new' },
        ]}
      />,
    );
    const items = within(screen.getByRole('list', { name: 'What was verified' })).getAllByRole('listitem');
    expect(items.map((i) => i.getAttribute('data-ok'))).toEqual(['true', 'true', 'true', 'true', 'false', 'true']);
    expect(within(items[0]!).getByText('The folder is apart from the data Sanad is using')).toBeTruthy();
    expect(within(items[1]!).getByText('The folder is empty or new')).toBeTruthy();
    // Values are isolated (FSI … PDI) so a path keeps its order inside an Arabic sentence.
    expect(within(items[2]!).getByText('Matches the backup (size and checksum): \u2068sanad.db\u2069')).toBeTruthy();
    expect(within(items[3]!).getByText('Model ready: \u2068tiny\u2069')).toBeTruthy();
    expect(within(items[4]!).getByText('Failed')).toBeTruthy();
    expect(await within(items[4]!).findByText('wrong key')).toBeTruthy();
    expect(within(items[5]!).getByText('future:check')).toBeTruthy();
  });

  test('every check name the restore reports (src/restore) has words in both languages', () => {
    const server = [
      'target:outside_live',
      'target:empty',
      'keychain:available',
      'snapshot:found',
      'manifest:valid',
      'snapshot:restored',
      'files:placed',
      'sqlite:integrity',
      'sqlite:tables',
      'registry:updated',
      'vault:decrypt',
      'store:located',
      'deletions:reapplied',
      'store:sanad',
      'exposure:reset',
      'target:layout',
      'keychain:stored',
      'restore:completed',
      'restore:cancelled',
      'item:vault.key',
      'models:tiny',
    ];
    for (const lng of ['en', 'ar'] as const) {
      const t = i18next.getFixedT(lng, restoreCheckStrings.name);
      for (const name of server) {
        const label = restoreCheckLabel(name, (key, vars) => t(key, vars ?? {}));
        expect(label, `${lng} ${name}`).not.toBe(name);
        expect(label, `${lng} ${name}`).not.toMatch(/^[a-z_:-]+$/);
      }
    }
  });

  test('restore progress: bytes while restic restores, the phase in words otherwise', () => {
    const holder: { t?: RestoreProgressT } = {};
    function Grab() {
      holder.t = useStrings(restoreProgressStrings).t;
      return null;
    }
    render(<Grab />);
    const t = holder.t;
    if (!t) throw new Error('no t');
    expect(restoreProgressValue({ id: 'r', phase: 'restoring', percent: 0.5, bytes_done: 10, bytes_total: 20 }, t)).toEqual({
      fraction: 0.5,
      step: 'Restoring the files',
      bytesDone: 10,
      bytesTotal: 20,
    });
    expect(restoreProgressValue({ id: 'r', phase: 'verifying' }, t)).toEqual({ fraction: null, step: 'Verifying every file against the manifest' });
    expect(restoreProgressValue({ id: 'r', phase: 'new_phase' }, t)).toEqual({ fraction: null, step: 'Restoring' });
    expect(restoreProgressValue(null, t)).toBeNull();
  });

  test('the wait: the old instance answers, then nobody, then 401 from the new one (simulated answers)', async () => {
    expect(await probe(async () => ({}))).toBe('old');
    expect(await probe(async () => Promise.reject(new ApiError(401, 'authentication_error', null, 'no', null)))).toBe('new');
    expect(await probe(async () => Promise.reject(new ApiError(0, 'network_error', 'unreachable', 'down', null)))).toBe('down');
    expect(await probe(async () => Promise.reject(new ApiError(503, 'service_unavailable_error', null, 'closing', null)))).toBe('down');

    const answers = ['old', 'old', 'down', 'down', 'new'] as const;
    let i = 0;
    let clock = 0;
    const back = await waitForRestart(async () => answers[i++] ?? 'new', {
      intervalMs: 100,
      timeoutMs: 10_000,
      now: () => clock,
      sleep: async (ms) => void (clock += ms),
    });
    expect(back).toBe(true);
    expect(i).toBe(5);
    const never = await waitForRestart(async () => 'down', { intervalMs: 100, timeoutMs: 1_000, now: () => clock, sleep: async (ms) => void (clock += ms) });
    expect(never).toBe(false);
  });

  test('the login link is followed on this page’s own origin and lands on the Restore screen', () => {
    expect(loginPath('http://127.0.0.1:7437/login?code=abc_-1')).toBe('/login?code=abc_-1#/restore');
  });
});
