// What changed between a generation and the live data, item by item: each kind (responses, tasks,
// clients, models, conversations) has its counts on one line and, behind "Show which", the items
// themselves by the name a person knows them by (what was asked, a client's name) with their id,
// twenty at a time. Settings show each changed value, before → after.
import { useState } from 'react';
import { Verbatim } from '../../components/Verbatim';
import { formatNumber } from '../../i18n/format';
import { useStrings } from '../../i18n/i18n';
import type { GenerationDiff } from './api';
import { historyStrings } from './strings';

const PAGE = 20;

type Part = { word: 'added' | 'removedWord' | 'changed' | 'revokedWord'; ids: string[] };

function Items({ parts, names }: { parts: Part[]; names: Record<string, string> }) {
  const { t, language } = useStrings(historyStrings);
  const all = parts.flatMap((p) => p.ids.map((id) => ({ id, word: p.word })));
  const [shown, setShown] = useState(PAGE);
  const next = Math.min(PAGE, all.length - shown);
  return (
    <>
      <ul className="diff-items">
        {all.slice(0, shown).map(({ id, word }) => (
          <li key={`${word}:${id}`} data-diff-item={id} data-change={word}>
            <span className={`diff-change diff-${word}`}>{t(word)}</span> {names[id] ? <Verbatim className="diff-name">{names[id]}</Verbatim> : null}{' '}
            <code className="muted small">{id}</code>
          </li>
        ))}
      </ul>
      {next > 0 && (
        <button type="button" onClick={() => setShown((n) => n + PAGE)} data-testid="diff-more">
          {t('diffMore', { count: next, n: formatNumber(language, next) })}
        </button>
      )}
    </>
  );
}

function Kind({ label, parts, names, testId }: { label: string; parts: Part[]; names: Record<string, string>; testId: string }) {
  const { t, language } = useStrings(historyStrings);
  const counts = parts.map((p) => `${formatNumber(language, p.ids.length)} ${t(p.word)}`).join(' · ');
  const any = parts.some((p) => p.ids.length > 0);
  return (
    <li data-testid={testId}>
      <span className="diff-counts">
        <strong>{label}</strong>: {counts}
      </span>
      {any && (
        <details className="diff-details">
          <summary>{t('diffWhich')}</summary>
          <Items parts={parts} names={names} />
        </details>
      )}
    </li>
  );
}

const shownValue = (v: unknown): string => (v === null || v === undefined ? '—' : typeof v === 'string' ? v : JSON.stringify(v));

export function DiffList({ diff }: { diff: GenerationDiff }) {
  const { t, language } = useStrings(historyStrings);
  const names = diff.names;
  const changes = (c: { added: string[]; removed: string[]; changed: string[] }): Part[] => [
    { word: 'added', ids: c.added },
    { word: 'removedWord', ids: c.removed },
    { word: 'changed', ids: c.changed },
  ];
  const settings = diff.settings.changed;
  return (
    <ul className="diff-list" data-testid="generation-diff">
      <Kind label={t('responses')} parts={changes(diff.responses)} names={names} testId="diff-responses" />
      <Kind label={t('tasks')} parts={changes(diff.tasks)} names={names} testId="diff-tasks" />
      <Kind
        label={t('clients')}
        parts={[
          { word: 'added', ids: diff.clients.added },
          { word: 'revokedWord', ids: diff.clients.revoked },
          { word: 'removedWord', ids: diff.clients.removed },
        ]}
        names={names}
        testId="diff-clients"
      />
      <Kind label={t('models')} parts={changes(diff.models)} names={names} testId="diff-models" />
      <Kind label={t('conversations')} parts={changes(diff.conversations)} names={names} testId="diff-conversations" />
      <li data-testid="diff-settings">
        <strong>{t('settings')}</strong>:{' '}
        {settings.length === 0 ? t('unchanged') : t('settingsChanged', { count: settings.length, n: formatNumber(language, settings.length) })}
        {settings.length > 0 && (
          <ul className="diff-items">
            {settings.map((c) => (
              <li key={c.key}>
                <code>{c.key}</code>: <Verbatim>{shownValue(c.from)}</Verbatim> → <Verbatim>{shownValue(c.to)}</Verbatim>
              </li>
            ))}
          </ul>
        )}
      </li>
    </ul>
  );
}
