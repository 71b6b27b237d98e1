// Adding a model: a path typed or, in the desktop shell, picked with the native file dialog, and
// an optional name. The server reads the whole file to fingerprint it before it answers, so the
// form says what it is doing meanwhile instead of looking frozen.
import { useState } from 'react';
import { errorForParams, unplacedError } from '../../api/error-param';
import { ErrorNote } from '../../components/ErrorNote';
import { FormField } from '../../components/FormField';
import { ProgressBar } from '../../components/ProgressBar';
import { useStrings } from '../../i18n/i18n';
import { desktopBridge } from '../../platform';
import { useAddModel } from './api';
import { modelStrings } from './strings';

const PARAMS = ['path', 'id'] as const;

export function AddModelForm() {
  const { t } = useStrings(modelStrings);
  const add = useAddModel();
  const [path, setPath] = useState('');
  const [id, setId] = useState('');
  const bridge = desktopBridge();
  // A new path starts a new add: "Added …" about the previous one would only confuse.
  const changePath = (value: string) => {
    setPath(value);
    if (add.isSuccess) add.reset();
  };
  const choose = async () => {
    const picked = await bridge?.pickModelFile();
    if (picked) changePath(picked);
  };
  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    const name = id.trim();
    add.mutate(name === '' ? { path: path.trim() } : { path: path.trim(), id: name }, {
      onSuccess: () => {
        setPath('');
        setId('');
      },
    });
  };
  return (
    <form className="card" onSubmit={submit} aria-labelledby="add-model-title" aria-busy={add.isPending}>
      <h2 id="add-model-title">{t('addTitle')}</h2>
      <FormField label={t('path')} hint={t('pathHint')} error={errorForParams(add.error, ['path'])}>
        {(p) => (
          <div className="row">
            <input
              {...p}
              className="model-path"
              value={path}
              onChange={(e) => changePath(e.target.value)}
              required
              spellCheck={false}
              dir="ltr"
              data-testid="model-path"
            />
            {bridge && (
              <button type="button" onClick={() => void choose()} disabled={add.isPending}>
                {t('choose')}
              </button>
            )}
          </div>
        )}
      </FormField>
      <FormField label={t('id')} hint={t('idHint')} error={errorForParams(add.error, ['id'])}>
        {(p) => <input {...p} value={id} onChange={(e) => setId(e.target.value)} spellCheck={false} dir="ltr" data-testid="model-id" />}
      </FormField>
      <div className="row">
        <button type="submit" className="primary" disabled={add.isPending || path.trim() === ''} data-testid="model-add">
          {t('add')}
        </button>
        {add.isSuccess && (
          <span role="status" className="ok">
            {t('added', { id: add.data.id })}
          </span>
        )}
      </div>
      {add.isPending && <ProgressBar label={t('addTitle')} value={{ fraction: null, step: t('adding') }} />}
      {unplacedError(add.error, PARAMS) !== null && <ErrorNote error={add.error} />}
    </form>
  );
}
