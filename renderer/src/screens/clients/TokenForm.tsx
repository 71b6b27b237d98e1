// Making a client with a token directly (no pairing). The token is in this component's state only,
// shown once with a warning, and forgotten when the user says it is stored or leaves the screen.
import { useState } from 'react';
import { errorForParams, unplacedError } from '../../api/error-param';
import { CopyButton } from '../../components/CopyButton';
import { ErrorNote } from '../../components/ErrorNote';
import { FormField } from '../../components/FormField';
import { useStrings } from '../../i18n/i18n';
import { useCreateClient, type Scope } from './api';
import { ScopePicker } from './ScopePicker';
import { clientStrings } from './strings';

export function TokenForm() {
  const { t } = useStrings(clientStrings);
  const create = useCreateClient();
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<Scope[]>(['models:read', 'responses:write']);
  const made = create.data;
  return (
    <section className="card" aria-labelledby="token-title">
      <h2 id="token-title">{t('tokenTitle')}</h2>
      <p className="muted">{t('tokenHelp')}</p>
      {made ? (
        <div className="token-once" role="alert" data-testid="token-once">
          <p className="warn">{t('tokenOnce')}</p>
          <code className="token-value" aria-label={t('tokenLabel', { name })} dir="ltr">
            {made.token}
          </code>
          <div className="row">
            <CopyButton value={made.token} label={t('copyToken')} />
            <button
              type="button"
              onClick={() => {
                create.reset();
                setName('');
              }}
            >
              {t('tokenDone')}
            </button>
          </div>
        </div>
      ) : (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            create.mutate({ name: name.trim(), scopes });
          }}
        >
          <FormField label={t('name')} hint={t('nameHint')} error={errorForParams(create.error, ['name'])}>
            {(p) => <input {...p} value={name} onChange={(e) => setName(e.target.value)} required maxLength={100} data-testid="token-name" />}
          </FormField>
          <ScopePicker value={scopes} onChange={setScopes} testId="token-scopes" />
          <div className="row pair-actions">
            <button
              type="submit"
              className="primary"
              disabled={scopes.length === 0 || name.trim() === '' || create.isPending}
              aria-busy={create.isPending}
              data-testid="token-make"
            >
              {t('makeToken')}
            </button>
          </div>
          {unplacedError(create.error, ['name']) !== null && <ErrorNote error={create.error} />}
        </form>
      )}
    </section>
  );
}
