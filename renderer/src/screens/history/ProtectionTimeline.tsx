// The protection timeline (Overview and Backups): the last 30 days, one strip per repository, each
// generation a mark, each gap longer than the backup target drawn in the warning colour, and the
// drills as PASS / FAIL / UNVERIFIED marks, in an SVG the GUI draws itself. Every mark and gap is
// reachable by keyboard: the timeline is one Tab stop and the arrow keys go from mark to mark
// (Home/End to the ends); focus or hover shows its details in words below the picture (never colour
// alone: gaps are hatched, verdicts are ✓ ✗ ?, which read the same in every language). Right-to-left in Arabic: time runs
// from right to left (positions are mirrored); the SVG itself stays LTR so x means the same thing.
import { useRef, useState, type KeyboardEvent } from 'react';
import { backupTargetHours } from '../../../../src/contract/backups';
import { formatDateTime, formatNumber } from '../../i18n/format';
import type { Language } from '../../i18n/i18n';
import { useStrings } from '../../i18n/i18n';
import { useBackupStatus, useGenerations } from '../backups/api';
import { useDrillHistory } from '../drills/api';
import { useNowSeconds } from '../overview/use-now';
import { timelineStrings } from './timeline-strings';
import { timelineModel, type TimelineModel } from './timeline';
import './history.css';

/** What makes a mark reachable by keyboard and readable by a screen reader. */
interface Focusable {
  tabIndex: number;
  'data-key': string;
  role: 'img';
  'aria-label': string;
  onFocus: () => void;
  onMouseEnter: () => void;
  onBlur: () => void;
}

const DAYS = 30;
const WIDTH = 600;
const ROW = 28;
const LABEL = 0;
const VERDICT_MARK = { PASS: '✓', FAIL: '✗', UNVERIFIED: '?' } as const;

/** A gap's length in words: whole days from two days on, else hours ("3 days", "18 hours"). */
function gapLength(language: Language, seconds: number): string {
  const days = seconds / 86_400;
  const [value, unit] = days >= 2 ? [Math.round(days), 'day'] : [Math.round(seconds / 3600), 'hour'];
  return formatNumber(language, value, { style: 'unit', unit, unitDisplay: 'long' });
}

/** Generations of every repository, as the Backups screen's tables read them (cached a minute). */
function useAllGenerations(repos: Array<{ name: string; backedUp: boolean }>): { repos: Array<{ name: string; generations: number[] }>; pending: boolean } {
  // A fixed number of hooks: at most four repositories are drawn (the rest are on the Backups
  // screen). One that never got a backup is not asked (it has no repository yet, and nothing to draw).
  const ask = (i: number): boolean => repos[i]?.backedUp === true;
  const a = useGenerations(repos[0]?.name ?? null, ask(0));
  const b = useGenerations(repos[1]?.name ?? null, ask(1));
  const c = useGenerations(repos[2]?.name ?? null, ask(2));
  const d = useGenerations(repos[3]?.name ?? null, ask(3));
  const qs = [a, b, c, d].slice(0, Math.min(4, repos.length));
  return {
    repos: qs.map((q, i) => ({ name: repos[i]?.name ?? '', generations: (q.data ?? []).map((g) => g.generation) })),
    pending: qs.some((q, i) => ask(i) && q.isPending),
  };
}

export function ProtectionTimeline() {
  const { t, language } = useStrings(timelineStrings);
  const nowS = useNowSeconds();
  const status = useBackupStatus();
  const shown = (status.data?.repositories ?? []).filter((r) => r.enabled).map((r) => ({ name: r.name, backedUp: r.last_ok_at !== null }));
  const { repos, pending } = useAllGenerations(shown);
  const drills = useDrillHistory();
  const [focused, setFocused] = useState<string | null>(null);
  const intervalHours = status.data?.interval_hours ?? 6;
  const target = formatNumber(language, backupTargetHours(intervalHours), { style: 'unit', unit: 'hour', unitDisplay: 'long' });
  const model: TimelineModel = timelineModel({
    nowS,
    days: DAYS,
    intervalHours,
    repos,
    drills: (drills.data ?? [])
      .filter((d) => d.verdict !== null && d.finished_at !== null)
      .map((d) => ({ at: d.finished_at ?? 0, verdict: d.verdict ?? 'UNVERIFIED', repo: d.repo })),
  });
  const rtl = language === 'ar';
  const px = (x: number): number => LABEL + (rtl ? 1 - x : x) * (WIDTH - LABEL);
  const height = (model.rows.length + 1) * ROW + 18;
  const when = (s: number): string => formatDateTime(language, s);
  const describe = (key: string): string => {
    const [kind, repo = '', a = '0', b = '0'] = key.split('\u0000');
    if (kind === 'g') return t('generation', { date: when(Number(a)), repo });
    if (kind === 'd') return t('drill', { date: when(Number(a)), verdict: t(repo === 'PASS' || repo === 'FAIL' ? `verdict_${repo}` : 'verdict_UNVERIFIED') });
    return t('gap', { repo, from: when(Number(a)), to: when(Number(b)), duration: gapLength(language, Number(b) - Number(a)), target });
  };
  // One Tab stop (the mark last focused, else the first); the arrow keys move along every mark.
  const order = [
    ...model.rows.flatMap((row) =>
      [
        ...row.gaps.map((g) => ({ x: g.x1, key: `x\u0000${row.repo}\u0000${g.from}\u0000${g.to}` })),
        ...row.marks.map((m) => ({ x: m.x, key: `g\u0000${row.repo}\u0000${m.at}` })),
      ].sort((p, q) => p.x - q.x),
    ),
    ...model.drills.map((d) => ({ x: d.x, key: `d\u0000${d.verdict}\u0000${d.at}` })),
  ].map((o) => o.key);
  const [current, setCurrent] = useState<string | null>(null);
  const stop = current !== null && order.includes(current) ? current : (order[0] ?? null);
  const svg = useRef<SVGSVGElement>(null);
  const onKeyDown = (e: KeyboardEvent<SVGSVGElement>): void => {
    const at = stop === null ? -1 : order.indexOf(stop);
    const forward = rtl ? 'ArrowLeft' : 'ArrowRight';
    const back = rtl ? 'ArrowRight' : 'ArrowLeft';
    const to =
      e.key === forward || e.key === 'ArrowDown'
        ? at + 1
        : e.key === back || e.key === 'ArrowUp'
          ? at - 1
          : e.key === 'Home'
            ? 0
            : e.key === 'End'
              ? order.length - 1
              : null;
    if (to === null || order.length === 0) return;
    e.preventDefault();
    const key = order[Math.max(0, Math.min(order.length - 1, to))] ?? null;
    setCurrent(key);
    const el = [...(svg.current?.querySelectorAll('[data-key]') ?? [])].find((n) => n.getAttribute('data-key') === key);
    if (el instanceof SVGElement) el.focus();
  };
  const focusable = (key: string): Focusable => ({
    tabIndex: key === stop ? 0 : -1,
    role: 'img',
    'aria-label': describe(key),
    'data-key': key,
    onFocus: () => {
      setFocused(key);
      setCurrent(key);
    },
    onMouseEnter: () => setFocused(key),
    onBlur: () => setFocused((k) => (k === key ? null : k)),
  });
  const empty = !pending && model.rows.every((r) => r.marks.length === 0);
  return (
    <section className="card timeline" aria-labelledby="timeline-title" data-testid="protection-timeline">
      <h2 id="timeline-title">{t('title')}</h2>
      <p className="muted small">{t('summary', { target })}</p>
      {pending && shown.length > 0 && (
        <p className="muted" aria-live="polite">
          {t('loading')}
        </p>
      )}
      {empty && <p className="warn">{t('none')}</p>}
      <svg
        viewBox={`0 0 ${WIDTH} ${height}`}
        width="100%"
        className="timeline-svg"
        aria-describedby="timeline-detail"
        data-rtl={rtl}
        direction="ltr"
        ref={svg}
        onKeyDown={onKeyDown}
      >
        <defs>
          <pattern id="gap-hatch" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
            <rect width="6" height="6" className="timeline-gap-fill" />
            <line x1="0" y1="0" x2="0" y2="6" className="timeline-gap-line" />
          </pattern>
        </defs>
        {model.rows.map((row, i) => {
          const y = i * ROW + 4;
          return (
            <g key={row.repo} data-testid={`timeline-row-${row.repo}`}>
              <text x={rtl ? WIDTH - 2 : 2} y={y + 9} className="timeline-label verbatim" textAnchor={rtl ? 'end' : 'start'}>
                {row.repo}
              </text>
              <line x1={0} x2={WIDTH} y1={y + 18} y2={y + 18} className="timeline-axis" />
              {row.gaps.map((g) => {
                const key = `x\u0000${row.repo}\u0000${g.from}\u0000${g.to}`;
                const [x1, x2] = [px(g.x1), px(g.x2)].sort((p, q) => p - q);
                return (
                  <rect
                    key={key}
                    data-testid="timeline-gap"
                    x={x1}
                    width={Math.max(2, (x2 ?? 0) - (x1 ?? 0))}
                    y={y + 12}
                    height={12}
                    fill="url(#gap-hatch)"
                    className={`timeline-gap${focused === key ? ' focused' : ''}`}
                    {...focusable(key)}
                  />
                );
              })}
              {row.marks.map((m) => {
                const key = `g\u0000${row.repo}\u0000${m.at}`;
                return (
                  <rect
                    key={key}
                    data-testid="timeline-mark"
                    x={px(m.x) - 2}
                    y={y + 11}
                    width={4}
                    height={14}
                    className={`timeline-mark${focused === key ? ' focused' : ''}`}
                    {...focusable(key)}
                  />
                );
              })}
            </g>
          );
        })}
        <g data-testid="timeline-drills">
          <text x={rtl ? WIDTH - 2 : 2} y={model.rows.length * ROW + 13} className="timeline-label" textAnchor={rtl ? 'end' : 'start'}>
            {t('drills')}
          </text>
          {model.drills.map((d) => {
            const key = `d\u0000${d.verdict}\u0000${d.at}`;
            const y = model.rows.length * ROW + 16;
            return (
              <g
                key={key}
                data-testid="timeline-drill"
                data-verdict={d.verdict}
                className={`timeline-drill ${d.verdict.toLowerCase()}${focused === key ? ' focused' : ''}`}
                {...focusable(key)}
              >
                <circle cx={px(d.x)} cy={y + 8} r={7} />
                <text x={px(d.x)} y={y + 12} textAnchor="middle" className="timeline-letter">
                  {VERDICT_MARK[d.verdict]}
                </text>
              </g>
            );
          })}
        </g>
      </svg>
      <div className="timeline-ends muted small" aria-hidden="true">
        {/* The row follows the page's direction: the oldest edge first (left in English, right in Arabic). */}
        <span>{t('daysAgo', { days: DAYS })}</span>
        <span>{t('today')}</span>
      </div>
      <p id="timeline-detail" className="timeline-detail" aria-live="polite" data-testid="timeline-detail">
        {focused === null ? t('focusHint') : describe(focused)}
      </p>
    </section>
  );
}
