// The Hugging Face token for gated models: saved to the keychain through the service, never shown
// back (only whether one is saved); sent only to the hub, and only when it asks for one.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { z } from 'zod/v3';
import { api } from '../../api/http';
import { ErrorNote } from '../../components/ErrorNote';
import { FormField } from '../../components/FormField';
import { useStrings } from '../../i18n/i18n';
import { modelStrings } from './strings';
import type { HubTokenRequest } from '../../../../src/contract/admin-requests';

const Saved = z.object({ saved: z.boolean() });
const key = ['models', 'hub-token'] as const;

export function HubTokenForm() {
  const { t } = useStrings(modelStrings);
  const client = useQueryClient();
  const saved = useQuery({ queryKey: key, queryFn: () => api('GET', '/admin/hub-token', Saved) });
  const [token, setToken] = useState('');
  const change = useMutation({
    mutationFn: (value: string | null) =>
      value === null
        ? api('DELETE', '/admin/hub-token', Saved)
        : api('PUT', '/admin/hub-token', Saved, { token: value } satisfies z.input<typeof HubTokenRequest>),
    onSuccess: (s) => {
      client.setQueryData(key, s);
      setToken('');
    },
  });
  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    change.mutate(token.trim());
  };
  return (
    <form className="card" onSubmit={submit} aria-labelledby="hub-token-title" data-testid="hub-token">
      <h2 id="hub-token-title">{t('tokenTitle')}</h2>
      <p className="muted" data-testid="hub-token-state">
        {saved.data?.saved ? t('tokenSaved') : t('tokenNone')}
      </p>
      <FormField label={t('tokenLabel')} hint={t('tokenHint')}>
        {(p) => (
          <input {...p} type="password" autoComplete="off" value={token} onChange={(e) => setToken(e.target.value)} dir="ltr" data-testid="hub-token-input" />
        )}
      </FormField>
      <div className="row">
        <button type="submit" disabled={change.isPending || token.trim().length < 8} data-testid="hub-token-save">
          {t('tokenSave')}
        </button>
        {saved.data?.saved && (
          <button type="button" onClick={() => change.mutate(null)} disabled={change.isPending}>
            {t('tokenRemove')}
          </button>
        )}
      </div>
      {change.isError && <ErrorNote error={change.error} />}
    </form>
  );
}
