import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, test } from 'vitest';
import { i18next, setLanguage } from '../../i18n/i18n';
import { checkLabel, checkStrings, parseCheckName } from './check-names';
import { DrillChecklist, VerdictBadge } from './DrillChecklist';
import { drillProgressValue } from './progress';
import type { DrillCheck } from './api';

afterEach(() => {
  cleanup();
  setLanguage('en');
});

const checks: DrillCheck[] = [
  {
    name: 'local:repo:open',
    status: 'pass' as const,
    code: 'drill.open.ok',
    params: { generation: 1796354072, snapshot: '1a2b3c4d', time: '2026-12-04T03:16:25Z', count: 3 },
    detail: 'newest generation 1796354072',
  },
  { name: 'local:read-data:recheck', status: 'fail' as const, code: 'said.text', params: { text: 'pack 1a2b is damaged' }, detail: 'pack 1a2b is damaged' },
  {
    name: 'r2:vault:decrypt',
    status: 'unverified' as const,
    code: 'drill.not_run',
    params: { why: [{ code: 'drill.why_no_manifest', params: {} }] },
    detail: 'not run: manifest.json could not be read',
  },
  {
    name: 'offsite-copy:read-back',
    status: 'pass' as const,
    code: 'drill.copies.ok',
    params: { count: 1, destination: 'r2:copies', newest: 'sanad-1.tar.gz.age', size: 7142 },
    detail: '1 copy',
  },
  { name: 'local:something-new', status: 'pass' as const, code: 'drill.something_new', params: {}, detail: 'a check this GUI does not know' },
];

describe('drill checklist', () => {
  test('check names split into repository and check; the longest known check wins; unknown names stay whole', () => {
    expect(parseCheckName('local:vault:decrypt')).toEqual({ repo: 'local', key: 'vault_decrypt', raw: 'local:vault:decrypt' });
    expect(parseCheckName('my:repo:read-data:recheck')).toEqual({ repo: 'my:repo', key: 'read-data_recheck', raw: 'my:repo:read-data:recheck' });
    expect(parseCheckName('offsite-copy:read-back')).toEqual({ repo: null, key: 'offsite-copy_read-back', raw: 'offsite-copy:read-back' });
    expect(parseCheckName('local:something-new')).toEqual({ repo: null, key: null, raw: 'local:something-new' });
  });

  test('every check name a drill reports (src/drill) has words in both languages', () => {
    const server = [
      'local:repo:open',
      'local:repo:lock',
      'local:manifest',
      'local:sqlite:integrity',
      'local:vault:decrypt',
      'local:read-data',
      'local:read-data:recheck',
      'local:restore:rehearsal',
      'repositories',
      'offsite-copy:read-back',
      'drill',
    ];
    for (const lng of ['en', 'ar'] as const) {
      const t = i18next.getFixedT(lng, checkStrings.name);
      for (const name of server) {
        const parsed = parseCheckName(name);
        expect(parsed.key, name).not.toBeNull();
        const label = checkLabel(parsed, (key, vars) => t(key, vars ?? {}));
        expect(label, `${lng} ${name}`).not.toMatch(/^[a-z_:-]+$/);
      }
    }
  });

  test('every check is listed with its result, its words, its repository and its detail', async () => {
    render(<DrillChecklist checks={checks} />);
    const list = screen.getByRole('list', { name: 'Checks' });
    await screen.findByText(/newest generation/);
    const items = within(list).getAllByRole('listitem');
    expect(items).toHaveLength(5);
    expect(items.map((li) => li.getAttribute('data-status'))).toEqual(['pass', 'fail', 'unverified', 'pass', 'pass']);
    expect(within(items[0]!).getByText('Passed')).toBeTruthy();
    expect(within(items[0]!).getByText('The repository opens with the passphrase')).toBeTruthy();
    expect(within(items[0]!).getByText('in “local”')).toBeTruthy();
    expect(within(items[1]!).getByText('Failed').className).toContain('fail');
    expect(within(items[1]!).getByText('Data found damaged before, read again')).toBeTruthy();
    expect(within(items[1]!).getByText('pack 1a2b is damaged')).toBeTruthy();
    expect(within(items[2]!).getByText('Unverified').className).toContain('warn');
    expect(within(items[2]!).getByText('in “r2”')).toBeTruthy();
    expect(within(items[3]!).queryByText(/in “/)).toBeNull();
    expect(within(items[4]!).getByText('local:something-new')).toBeTruthy();
    // Sayings: an id is not grouped, a list param worded inside, an unknown code shows the server's English.
    expect(items[0]!.textContent).toContain('newest generation 1796354072 (snapshot 1a2b3c4d, ');
    expect(items[0]!.textContent).toContain('3 generations in all');
    expect(items[2]!.textContent).toContain('not run: manifest.json could not be read');
    expect(items[3]!.textContent).toContain('1 copy in r2:copies listed with the size uploaded (sanad-1.tar.gz.age, 7142 bytes)');
    expect(within(items[4]!).getByText('a check this GUI does not know').getAttribute('lang')).toBe('en');
  });

  test('an empty checklist says so; verdicts are badges in words; Arabic translates both', async () => {
    render(<DrillChecklist checks={[]} />);
    expect(screen.getByText('No check ran.')).toBeTruthy();
    cleanup();
    setLanguage('ar');
    render(
      <>
        <VerdictBadge verdict="PASS" />
        <DrillChecklist checks={checks.slice(0, 4)} />
      </>,
    );
    expect(screen.getByText('ناجح').getAttribute('data-verdict')).toBe('PASS');
    expect(screen.getAllByText('نجح')).toHaveLength(2);
    expect(screen.getByText('المستودع يُفتح بعبارة المرور')).toBeTruthy();
    // The detail in Arabic: Arabic digits, the snapshot id kept as it is (isolated, not translated),
    // the file name as code; nothing of the English sentence.
    const opened = await screen.findByText(/أحدث جيل/);
    const ar = new Intl.NumberFormat('ar', { useGrouping: false });
    expect(opened.closest('li')?.textContent).toContain(ar.format(1796354072));
    expect(opened.closest('li')?.textContent).toContain(`عدد الأجيال كلها: ${ar.format(3)}`);
    expect(screen.getByText('1a2b3c4d').tagName).toBe('BDI');
    expect(screen.getByText('1a2b3c4d').getAttribute('translate')).toBe('no');
    expect(screen.getByText('manifest.json').tagName).toBe('CODE');
    expect(document.body.textContent).not.toMatch(/newest generation|not run|could not be read|listed with/);
  });

  test('drill progress: index is the check starting, so index - 1 of total are done', () => {
    const describe = (check: string, n: number, total: number) => `${n}/${total} ${check}`;
    expect(drillProgressValue({ id: 3, kind: 'daily', repo: 'local', check: 'local:manifest', index: 3, total: 5 }, describe)).toEqual({
      fraction: 0.4,
      step: '3/5 local:manifest',
    });
    expect(drillProgressValue({ check: 'x', index: 1, total: 0 }, describe)?.fraction).toBeNull();
    expect(drillProgressValue(null, describe)).toBeNull();
  });
});
