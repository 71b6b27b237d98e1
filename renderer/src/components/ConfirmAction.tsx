// A destructive action that asks first, in place: the button opens a short confirmation right
// where it was pressed (what will and will not happen, then "yes" and "cancel"), so the question
// sits next to the thing it is about and works the same with a keyboard (Escape cancels) and a
// screen reader (the question is an alert dialog named by its text). No modal, no portal.
import { useEffect, useId, useRef, useState } from 'react';
import { defineStrings, useStrings } from '../i18n/i18n';
import './people-components.css';

const ns = defineStrings('confirm', {
  en: { cancel: 'Cancel' },
  ar: { cancel: 'إلغاء' },
});

export interface ConfirmActionProps {
  /** The button that opens the question, e.g. "Remove". */
  label: string;
  /** The question, with what happens and what does not. */
  question: string;
  /** The button that does it, e.g. "Remove the model". */
  confirmLabel: string;
  onConfirm: () => void;
  busy?: boolean;
  /** 'danger' (the default) for what removes or replaces; 'primary' for what brings something back. */
  tone?: 'danger' | 'primary';
  testId?: string;
}

export function ConfirmAction({ label, question, confirmLabel, onConfirm, busy = false, testId, tone = 'danger' }: ConfirmActionProps) {
  const { t } = useStrings(ns);
  const [open, setOpen] = useState(false);
  const questionId = useId();
  const confirmRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (open) confirmRef.current?.focus();
  }, [open]);
  if (!open) {
    return (
      <button type="button" className={tone === 'danger' ? 'danger' : undefined} onClick={() => setOpen(true)} disabled={busy} data-testid={testId}>
        {label}
      </button>
    );
  }
  return (
    <div
      className="confirm-action"
      role="alertdialog"
      aria-describedby={questionId}
      aria-label={label}
      onKeyDown={(e) => {
        if (e.key === 'Escape') setOpen(false);
      }}
    >
      <p id={questionId}>{question}</p>
      <div className="row">
        <button
          ref={confirmRef}
          type="button"
          className={tone}
          disabled={busy}
          aria-busy={busy}
          data-testid={testId === undefined ? undefined : `${testId}-confirm`}
          onClick={() => {
            onConfirm();
            setOpen(false);
          }}
        >
          {confirmLabel}
        </button>
        <button type="button" onClick={() => setOpen(false)}>
          {t('cancel')}
        </button>
      </div>
    </div>
  );
}
