// Copies a value (a fingerprint, a pairing code, a token) to the clipboard and says so for a
// moment. The clipboard can be refused (an insecure origin, a denied permission): then it says to
// select the text and copy it by hand instead of failing silently.
import { useEffect, useState } from 'react';
import './people-components.css';
import { defineStrings, useStrings } from '../i18n/i18n';

const ns = defineStrings('copy', {
  en: { copy: 'Copy', copied: 'Copied', failed: 'Copy did not work; select the text and copy it.' },
  ar: { copy: 'نسخ', copied: 'نُسخ', failed: 'تعذّر النسخ؛ حدّد النص وانسخه يدويًا.' },
});

type State = 'idle' | 'copied' | 'failed';

export function CopyButton({ value, label, testId }: { value: string; label?: string; testId?: string }) {
  const { t } = useStrings(ns);
  const [state, setState] = useState<State>('idle');
  useEffect(() => {
    if (state !== 'copied') return undefined;
    const timer = setTimeout(() => setState('idle'), 2000);
    return () => clearTimeout(timer);
  }, [state]);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setState('copied');
    } catch {
      setState('failed');
    }
  };
  return (
    <span className="copy-button">
      <button type="button" onClick={() => void copy()} aria-label={label ?? t('copy')} data-testid={testId}>
        {t('copy')}
      </button>
      <span role="status" className={state === 'failed' ? 'field-error' : 'muted'}>
        {state === 'failed' ? t('failed') : state === 'copied' ? t('copied') : ''}
      </span>
    </span>
  );
}
