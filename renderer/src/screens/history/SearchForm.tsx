// The search of a list inside a generation (its responses, its conversations): words typed, sent
// on Enter or the button, and how many matched once a search is in force.
import { useState } from 'react';
import { formatNumber } from '../../i18n/format';
import { useStrings } from '../../i18n/i18n';
import { historyStrings } from './strings';

export interface SearchFormProps {
  label: string;
  hint: string;
  testId: string;
  foundTestId: string;
  /** How many match the search in force (null: no search, or no answer yet). */
  found: number | null;
  onSearch: (q: string) => void;
}

export function SearchForm({ label, hint, testId, foundTestId, found, onSearch }: SearchFormProps) {
  const { t, language } = useStrings(historyStrings);
  const [typed, setTyped] = useState('');
  return (
    <form
      role="search"
      className="row"
      onSubmit={(e) => {
        e.preventDefault();
        onSearch(typed.trim());
      }}
    >
      <label>
        {label} {/* As wide as its hint (within the line), so the hint is never cut mid-word. */}
        <input
          type="search"
          className="search-input"
          size={Math.min(48, Math.max(20, hint.length + 2))}
          value={typed}
          onChange={(e) => setTyped(e.target.value)}
          placeholder={hint}
          data-testid={testId}
          maxLength={200}
        />
      </label>
      <button type="submit">{t('searchButton')}</button>
      {found !== null && (
        <span className="muted" data-testid={foundTestId}>
          {t('found', { count: formatNumber(language, found) })}
        </span>
      )}
    </form>
  );
}
