// One form for every kind of offsite target: the fields follow the chosen type (target-form.ts
// says which), each labelled with a hint, and a server validation error appears under the field it
// names (anything else above the buttons). Secrets are write-only: an edit starts with the secret
// blank, and blank means "keep the stored one".
import { useState } from 'react';
import { ApiError } from '../../api/http';
import { firstBlank, focusControl, useBlankText } from '../../components/blank-field';
import { ErrorNote } from '../../components/ErrorNote';
import { FormField } from '../../components/FormField';
import { useStrings } from '../../i18n/i18n';
import { offsiteStrings } from './strings';
import { FIELDS, fieldForParam, REQUIRED, TARGET_TYPES, targetTypeOf, type FieldName, type TargetDraft, type TargetType } from './target-form';

export interface TargetFormProps {
  mode: 'add' | 'edit';
  initial: TargetDraft;
  /** Edit only: whether the vault holds a secret for this target. */
  hasSecret?: boolean;
  busy: boolean;
  error: unknown;
  onSubmit: (draft: TargetDraft) => void;
  onCancel?: () => void;
}

/** The field a server error belongs to, if that field is on the form now. */
function placedField(error: unknown, type: TargetType, mode: 'add' | 'edit'): FieldName | null {
  if (!(error instanceof ApiError) || error.status !== 400) return null;
  const field = fieldForParam(error.param);
  if (field === null || !FIELDS[type].includes(field) || (mode === 'edit' && field === 'name')) return null;
  return field;
}

export function TargetForm({ mode, initial, hasSecret = false, busy, error, onSubmit, onCancel }: TargetFormProps) {
  const { t } = useStrings(offsiteStrings);
  const [draft, setDraft] = useState<TargetDraft>(initial);
  // A required field left blank, caught here before anything is sent.
  const [blank, setBlank] = useState<FieldName | null>(null);
  const blankText = useBlankText();
  const set = (field: FieldName, value: string) => {
    setDraft((d) => ({ ...d, [field]: value }));
    if (field === blank) setBlank(null);
  };
  const placed = blank === null ? placedField(error, draft.type, mode) : null;
  const errorOf = (field: FieldName) => (blank === field ? blankText(label(field)) : placed === field && error instanceof ApiError ? error.message : null);
  const required = (field: FieldName) => mode === 'add' && REQUIRED[draft.type].includes(field);

  const label = (field: FieldName): string => {
    if (field === 'location') return t(`location-${draft.type}`);
    if (field === 'secret') return draft.type === 'rest' ? t('secret-rest') : t('secret-s3');
    if (field === 'rclone_config') return t('rclone_config');
    return t(field);
  };
  const hint = (field: FieldName): string | undefined => {
    switch (field) {
      case 'name':
        return t('nameHint');
      case 'location':
        return t(`locationHint-${draft.type}`);
      case 'region':
        return t('regionHint');
      case 'user':
        return t('userHint');
      case 'cacert':
        return t('cacertHint');
      case 'rclone_config':
        return t('rcloneConfigHint');
      case 'secret':
        return mode === 'add' ? t('secretHintAdd') : hasSecret ? t('secretHintKeep') : t('secretHintNone');
      default:
        return undefined;
    }
  };

  return (
    <form
      className="target-form"
      aria-busy={busy}
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        const missing = firstBlank(FIELDS[draft.type].filter(required), (f) => draft[f]);
        setBlank(missing);
        if (missing !== null) return focusControl(e.currentTarget, `target-${missing}`);
        onSubmit(draft);
      }}
    >
      {mode === 'add' ? (
        <FormField label={t('type')}>
          {(p) => (
            <select {...p} value={draft.type} onChange={(e) => setDraft((d) => ({ ...d, type: targetTypeOf(e.target.value) }))} data-testid="target-type">
              {TARGET_TYPES.map((type) => (
                <option key={type} value={type}>
                  {t(`type-${type}`)}
                </option>
              ))}
            </select>
          )}
        </FormField>
      ) : (
        <p>
          <span className="muted">{t('type')}:</span> {t(`type-${draft.type}`)}
        </p>
      )}
      {FIELDS[draft.type].map((field) =>
        field === 'name' && mode === 'edit' ? null : (
          <FormField key={field} label={label(field)} hint={hint(field)} error={errorOf(field)} testId={`field-${field}`}>
            {(p) => (
              <input
                {...p}
                type={field === 'secret' ? 'password' : 'text'}
                autoComplete={field === 'secret' ? 'new-password' : 'off'}
                spellCheck={false}
                dir="ltr"
                required={required(field)}
                value={draft[field]}
                onChange={(e) => set(field, e.target.value)}
                data-testid={`target-${field}`}
              />
            )}
          </FormField>
        ),
      )}
      {mode === 'edit' && (
        <label className="check">
          <input
            type="checkbox"
            checked={draft.enabled}
            onChange={(e) => setDraft((d) => ({ ...d, enabled: e.target.checked }))}
            data-testid="target-enabled"
          />{' '}
          {t('enabledLabel')}
        </label>
      )}
      {error !== null && error !== undefined && placed === null && blank === null && <ErrorNote error={error} />}
      <div className="row">
        <button type="submit" className="primary" disabled={busy} aria-busy={busy} data-testid="target-submit">
          {mode === 'add' ? t('add') : t('save')}
        </button>
        {onCancel && (
          <button type="button" onClick={onCancel}>
            {t('cancel')}
          </button>
        )}
      </div>
    </form>
  );
}
