import { QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, test } from 'vitest';
import { makeQueryClient } from '../../api/query-client';
import { browserNow } from '../../clock';
import { setLanguage } from '../../i18n/i18n';
import { ProtectionTimeline } from './ProtectionTimeline';
import { timelineModel } from './timeline';

afterEach(() => {
  cleanup();
  act(() => setLanguage('en'));
});

const DAY = 86_400;
const NOW = 1_800_000_000;

describe('the timeline model', () => {
  test('a gap is every stretch longer than the target without a generation, up to now; before the first generation is none', () => {
    const m = timelineModel({
      nowS: NOW,
      days: 30,
      intervalHours: 6,
      repos: [
        { name: 'local', generations: [NOW - 10 * DAY, NOW - 10 * DAY + 3600, NOW - 2 * DAY] },
        { name: 'r2', generations: [NOW - 40 * DAY, NOW - 20 * DAY, NOW - 3600] },
      ],
      drills: [
        { at: NOW - DAY, verdict: 'FAIL', repo: 'local' },
        { at: NOW - 31 * DAY, verdict: 'PASS', repo: null },
      ],
    });
    const [local, r2] = m.rows;
    expect(local?.marks.map((x) => x.at)).toEqual([NOW - 10 * DAY, NOW - 10 * DAY + 3600, NOW - 2 * DAY]);
    expect(local?.gaps.map((g) => [g.from, g.to])).toEqual([
      [NOW - 10 * DAY + 3600, NOW - 2 * DAY],
      [NOW - 2 * DAY, NOW],
    ]);
    // A stretch that began before the window is drawn from its edge; the one-hour-old backup ends the last gap.
    expect(r2?.marks.map((x) => x.at)).toEqual([NOW - 20 * DAY, NOW - 3600]);
    expect(r2?.gaps.map((g) => [g.from, g.to])).toEqual([
      [NOW - 40 * DAY, NOW - 20 * DAY],
      [NOW - 20 * DAY, NOW - 3600],
    ]);
    expect([r2?.gaps[0]?.x1, Math.round((r2?.gaps[0]?.x2 ?? 0) * 1000) / 1000]).toEqual([0, 0.333]);
    expect(m.drills.map((d) => d.verdict)).toEqual(['FAIL']);
  });

  test('nothing in the last 30 days is one gap reaching today, and a fresh repository has none', () => {
    const m = timelineModel({
      nowS: NOW,
      days: 30,
      intervalHours: 6,
      repos: [
        { name: 'old', generations: [NOW - 60 * DAY] },
        { name: 'fresh', generations: [NOW - 100] },
      ],
      drills: [],
    });
    expect(m.rows[0]?.marks).toEqual([]);
    expect(m.rows[0]?.gaps.map((g) => [g.x1, g.x2])).toEqual([[0, 1]]);
    expect(m.rows[1]?.gaps).toEqual([]);
  });
});

function seeded(now: number) {
  const client = makeQueryClient();
  client.setQueryData(['backups', 'status'], {
    running: false,
    paused: false,
    interval_hours: 6,
    last_ok_at: now - 3600,
    next_run_at: null,
    progress: null,
    waiting_for: [],
    alerts: [],
    repositories: [{ name: 'local', type: 'local', location: '/x', enabled: true, failing: false, last_ok_at: now - 3600, last_error: null }],
  });
  client.setQueryData(
    ['backups', 'generations', 'local'],
    [now - 5 * DAY, now - 5 * DAY + 3600, now - 3600].map((g) => ({
      generation: g,
      snapshot_id: `${g}`.padEnd(8, '0'),
      repo: 'local',
      time: new Date(g * 1000).toISOString(),
      size_bytes: null,
      host: 'h',
    })),
  );
  client.setQueryData(
    ['drills', 'history'],
    [{ id: 1, kind: 'daily', trigger: 'schedule', repo: 'local', verdict: 'UNVERIFIED', checks: [], started_at: now - 2 * DAY, finished_at: now - 2 * DAY }],
  );
  return client;
}

describe('the protection timeline', () => {
  test('marks, a hatched gap and a drill marked ?; one Tab stop, the arrow keys reach each and its words show below', () => {
    const now = Math.floor(browserNow() / 1000);
    render(
      <QueryClientProvider client={seeded(now)}>
        <ProtectionTimeline />
      </QueryClientProvider>,
    );
    const row = screen.getByTestId('timeline-row-local');
    expect(within(row).getAllByTestId('timeline-mark')).toHaveLength(3);
    const gaps = within(row).getAllByTestId('timeline-gap');
    expect(gaps).toHaveLength(1);
    expect(gaps[0]?.getAttribute('fill')).toBe('url(#gap-hatch)');
    const drill = screen.getByTestId('timeline-drill');
    expect(drill.getAttribute('data-verdict')).toBe('UNVERIFIED');
    expect(drill.textContent).toBe('?');
    // One Tab stop: the first mark; every other is reached with the arrow keys.
    const all = [...within(row).getAllByTestId('timeline-gap'), ...within(row).getAllByTestId('timeline-mark'), drill];
    expect(all.filter((el) => el.getAttribute('tabindex') === '0')).toHaveLength(1);
    const svg = row.closest('svg');
    if (!svg) throw new Error('no svg');
    const stop = all.find((el) => el.getAttribute('tabindex') === '0');
    if (!stop) throw new Error('no tab stop');
    stop.focus();
    const seen = new Set<string>();
    for (let i = 0; i < all.length; i++) {
      const active = document.activeElement;
      if (active instanceof Element) seen.add(active.getAttribute('data-key') ?? '');
      fireEvent.keyDown(svg, { key: 'ArrowRight' });
    }
    expect(seen.size, 'the arrows visit every mark, gap and drill').toBe(all.length);
    expect(document.activeElement).toBe(drill);
    expect(drill.getAttribute('tabindex')).toBe('0');
    fireEvent.keyDown(svg, { key: 'Home' });
    expect(document.activeElement).toBe(stop);
    const firstGap = gaps[0];
    if (!firstGap) throw new Error('no gap drawn');
    fireEvent.focus(firstGap);
    expect(screen.getByTestId('timeline-detail').textContent).toMatch(/^No backup in “local” for .+ \(the target is 12 hours\)$/);
    fireEvent.focus(drill);
    expect(screen.getByTestId('timeline-detail').textContent).toMatch(/^Drill of .+: UNVERIFIED$/);
  });

  test('in Arabic time runs right to left: the newest mark is nearest the left edge', () => {
    const now = Math.floor(browserNow() / 1000);
    act(() => setLanguage('ar'));
    render(
      <QueryClientProvider client={seeded(now)}>
        <ProtectionTimeline />
      </QueryClientProvider>,
    );
    const xs = within(screen.getByTestId('timeline-row-local'))
      .getAllByTestId('timeline-mark')
      .map((m) => Number(m.getAttribute('x')));
    expect(xs[2]).toBeLessThan(xs[0] ?? 0);
    expect(xs[2]).toBeLessThan(10);
    expect(screen.getByText('الحماية في آخر 30 يومًا')).toBeTruthy();
  });
});
