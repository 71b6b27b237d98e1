// A field left blank is caught by the form itself, in the reader's language, beside the field,
// instead of by the browser's own bubble ("Please fill out this field", always in the browser's
// language) or by the server's English. Forms set noValidate and call these.
import { defineStrings, useStrings } from '../i18n/i18n';

const ns = defineStrings('forms', {
  en: { blank: 'Fill in “{{label}}” first.' },
  ar: { blank: 'املأ حقل «{{label}}» أولًا.' },
});

/** The first of the required fields whose value is blank (spaces only count as blank), or null. */
export function firstBlank<const K extends string>(required: readonly K[], valueOf: (field: K) => string): K | null {
  return required.find((field) => valueOf(field).trim() === '') ?? null;
}

/** The sentence for a blank field, named by its label. */
export function useBlankText(): (label: string) => string {
  const { t } = useStrings(ns);
  return (label) => t('blank', { label });
}

/** Puts the keyboard on the form's control that `testId` names (the blank one, to fill in). */
export function focusControl(form: HTMLFormElement, testId: string): void {
  form.querySelector<HTMLElement>(`[data-testid="${testId}"]`)?.focus();
}
