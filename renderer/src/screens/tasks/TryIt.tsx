// "Try it": send a prompt to a model as a background response (POST /v1/responses, 202) and go to
// the new task's page to watch it stream. Errors the server ties to a field are shown beside it.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api } from '../../api/http';
import { href } from '../../app/routes';
import { ErrorNote } from '../../components/ErrorNote';
import { FieldNote } from '../../components/FieldNote';
import { errorFor, formError, placeError } from '../../components/param-errors';
import { useStrings } from '../../i18n/i18n';
import { useModels } from './api';
import { CreatedResponse } from './api';
import { taskStrings } from './strings';

const FIELDS = ['model', 'input', 'max_output_tokens'];

export function TryIt() {
  const { t } = useStrings(taskStrings);
  const client = useQueryClient();
  const models = useModels();
  const [model, setModel] = useState('');
  const [prompt, setPrompt] = useState('');
  const [maxTokens, setMaxTokens] = useState('64');
  const available = (models.data?.data ?? []).filter((m) => m.status === 'available');
  const chosen = model !== '' ? model : (available[0]?.id ?? '');
  const send = useMutation({
    mutationFn: () =>
      api('POST', '/v1/responses', CreatedResponse, {
        model: chosen,
        input: prompt,
        // An empty or non-numeric entry goes as null and the server says what is wrong with it.
        max_output_tokens: maxTokens.trim() === '' || !Number.isFinite(Number(maxTokens)) ? null : Number(maxTokens),
        background: true,
      }),
    onSuccess: async (created) => {
      await client.invalidateQueries({ queryKey: ['tasks'] });
      window.location.hash = href('tasks', created.task_id);
    },
  });
  const placed = placeError(send.error, FIELDS);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    send.mutate();
  };
  const invalid = (field: string) => (errorFor(placed, field) ? { 'aria-invalid': true, 'aria-describedby': `try-${field}-error` } : {});
  return (
    <form className="card try-it" onSubmit={submit} noValidate aria-labelledby="try-title" data-testid="try-it">
      <h2 id="try-title">{t('tryTitle')}</h2>
      {models.isError && <ErrorNote error={models.error} onRetry={() => void models.refetch()} />}
      {models.isSuccess && models.data.data.length === 0 && <p className="warn">{t('tryNoModels')}</p>}
      <div className="try-grid">
        <div className="field">
          <label htmlFor="try-model">{t('tryModel')}</label>
          <select id="try-model" value={chosen} onChange={(e) => setModel(e.target.value)} {...invalid('model')}>
            {(models.data?.data ?? []).map((m) => (
              <option key={m.id} value={m.id} disabled={m.status !== 'available'} translate="no">
                {m.status === 'available' ? m.id : t('modelUnavailable', { id: m.id })}
              </option>
            ))}
          </select>
          <FieldNote id="try-model-error" error={errorFor(placed, 'model')} />
        </div>
        <div className="field">
          <label htmlFor="try-max">{t('tryMax')}</label>
          <input
            id="try-max"
            type="number"
            inputMode="numeric"
            min={1}
            value={maxTokens}
            onChange={(e) => setMaxTokens(e.target.value)}
            {...invalid('max_output_tokens')}
          />
          <FieldNote id="try-max_output_tokens-error" error={errorFor(placed, 'max_output_tokens')} />
        </div>
      </div>
      <div className="field">
        <label htmlFor="try-prompt">{t('tryPrompt')}</label>
        <textarea id="try-prompt" rows={3} value={prompt} onChange={(e) => setPrompt(e.target.value)} {...invalid('input')} />
        <FieldNote id="try-input-error" error={errorFor(placed, 'input')} />
      </div>
      {formError(placed) !== null && <ErrorNote error={formError(placed)} />}
      <button type="submit" className="primary" disabled={send.isPending || chosen === ''}>
        {send.isPending ? t('trySending') : t('trySend')}
      </button>
    </form>
  );
}
