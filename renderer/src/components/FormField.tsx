// A labelled form control with its hint and its error beside it: the control gets an id, and
// aria-describedby / aria-invalid that point at the hint and the error, so a screen reader reads
// the error with the field and a sighted user sees it where they typed.
import { useId, type ReactNode } from 'react';
import './people-components.css';
import { WithCode } from './WithCode';

export interface ControlProps {
  id: string;
  'aria-describedby'?: string;
  'aria-invalid'?: true;
}

export interface FormFieldProps {
  label: string;
  hint?: string | undefined;
  error?: string | null | undefined;
  testId?: string | undefined;
  children: (props: ControlProps) => ReactNode;
}

export function FormField({ label, hint, error, testId, children }: FormFieldProps) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const described = [hint ? hintId : null, error ? errorId : null].filter((x) => x !== null).join(' ');
  return (
    <div className="field" data-testid={testId}>
      <label htmlFor={id}>{label}</label>
      {children({ id, ...(described ? { 'aria-describedby': described } : {}), ...(error ? { 'aria-invalid': true } : {}) })}
      {hint && (
        <div id={hintId} className="muted field-hint">
          <WithCode text={hint} />
        </div>
      )}
      {error && (
        <div id={errorId} className="field-error" role="alert">
          {error}
        </div>
      )}
    </div>
  );
}
