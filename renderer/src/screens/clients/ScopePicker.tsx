// The permissions a client gets, as a group of labelled checkboxes with what each one allows.
import { useStrings } from '../../i18n/i18n';
import { SCOPE_TEXT, SCOPES, type Scope } from './api';
import { clientStrings } from './strings';

export function ScopePicker({ value, onChange, testId }: { value: Scope[]; onChange: (next: Scope[]) => void; testId: string }) {
  const { t } = useStrings(clientStrings);
  const toggle = (scope: Scope, on: boolean) => onChange(SCOPES.filter((s) => (s === scope ? on : value.includes(s))));
  return (
    <fieldset className="scope-picker" data-testid={testId}>
      <legend>{t('scopes')}</legend>
      {SCOPES.map((scope) => (
        <label key={scope} className="scope-option">
          <input type="checkbox" checked={value.includes(scope)} onChange={(e) => toggle(scope, e.target.checked)} data-testid={`${testId}-${scope}`} />
          <code>{scope}</code> <span>{t(SCOPE_TEXT[scope])}</span>
        </label>
      ))}
      {value.includes('admin') && <p className="warn">{t('adminWarning')}</p>}
      {value.length === 0 && <p className="field-error">{t('noScope')}</p>}
    </fieldset>
  );
}
