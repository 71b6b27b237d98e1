// A reasoning model's thought, apart from its answer: while it thinks, "Thinking…" with the thought
// growing inside; after, folded under the time it took. Closed by default: most people want the
// answer, and a thought can be long.
import { formatNumber } from '../../i18n/format';
import { useStrings } from '../../i18n/i18n';
import { chatStrings } from './strings';

export interface ThoughtBlockProps {
  text: string;
  thinking: boolean;
  /** How long it took, when known (null: a thought this tab did not watch). */
  seconds: number | null;
}

export function ThoughtBlock({ text, thinking, seconds }: ThoughtBlockProps) {
  const { t, language } = useStrings(chatStrings);
  const label = thinking
    ? t('thinking')
    : seconds === null
      ? t('thought')
      : seconds < 1
        ? t('thoughtBrief')
        : t('thoughtFor', { seconds: formatNumber(language, seconds, { maximumFractionDigits: seconds < 10 ? 1 : 0 }) });
  return (
    <details className="chat-thought" data-testid="chat-thought" data-thinking={thinking}>
      <summary>
        <span role={thinking ? 'status' : undefined} data-testid="chat-thought-label">
          {label}
        </span>
      </summary>
      <p dir="auto" className="chat-plain" data-testid="chat-thought-text">
        {text}
      </p>
    </details>
  );
}
