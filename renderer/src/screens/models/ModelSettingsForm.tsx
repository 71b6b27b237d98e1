// One model's settings: its context length (at most what it was trained for, which the field
// says), GPU layers, default temperature and max output tokens; empty means "the default". For a
// pulled model, whether backups carry its bytes or only where it came from, with what each costs
// (its size in every backup and offsite upload) and risks (the hub may remove the file).
import { useState } from 'react';
import { ErrorNote } from '../../components/ErrorNote';
import { FormField } from '../../components/FormField';
import { formatBytes } from '../../i18n/format';
import { useStrings } from '../../i18n/i18n';
import type { ModelInfo } from './api';
import { useModelSettings, type SettingsPatch } from './pull-api';
import { modelStrings } from './strings';

const text = (v: number | string | null | undefined): string => (v === null || v === undefined ? '' : String(v));

function SettingsOf({ model }: { model: ModelInfo }) {
  const { t, language } = useStrings(modelStrings);
  const save = useModelSettings(model.id);
  const s = model.settings;
  const [context, setContext] = useState(text(s?.context_size));
  const [gpu, setGpu] = useState(text(s?.gpu_layers));
  const [temperature, setTemperature] = useState(text(s?.temperature));
  const [maxOut, setMaxOut] = useState(text(s?.max_output_tokens));
  const [backup, setBackup] = useState(model.backup ?? 'include');
  const [local, setLocal] = useState<string | null>(null);
  const num = (v: string): number | null => (v.trim() === '' ? null : Number(v));
  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    const g = gpu.trim();
    if (g !== '' && g !== 'auto' && !/^\d+$/.test(g)) return setLocal(t('gpuBad'));
    setLocal(null);
    const patch: SettingsPatch = {
      context_size: num(context),
      gpu_layers: g === '' ? null : g === 'auto' ? 'auto' : Number(g),
      temperature: num(temperature),
      max_output_tokens: num(maxOut),
    };
    if (model.source) patch.backup = backup;
    save.mutate(patch);
  };
  const size = formatBytes(language, model.size_bytes);
  return (
    <form onSubmit={submit} data-testid={`model-settings-${model.id}`} aria-busy={save.isPending}>
      <div className="settings-grid">
        <FormField label={t('setContext')} hint={s?.trained_context ? t('setContextHint', { n: String(s.trained_context) }) : t('setContextHintUnknown')}>
          {(p) => <input {...p} inputMode="numeric" value={context} onChange={(e) => setContext(e.target.value)} dir="ltr" data-testid="set-context" />}
        </FormField>
        <FormField label={t('setGpu')} hint={t('setGpuHint')} error={local}>
          {(p) => <input {...p} value={gpu} onChange={(e) => setGpu(e.target.value)} dir="ltr" placeholder="auto" />}
        </FormField>
        <FormField label={t('setTemperature')} hint={t('setTemperatureHint')}>
          {(p) => <input {...p} inputMode="decimal" value={temperature} onChange={(e) => setTemperature(e.target.value)} dir="ltr" />}
        </FormField>
        <FormField label={t('setMaxOut')} hint={t('setMaxOutHint')}>
          {(p) => <input {...p} inputMode="numeric" value={maxOut} onChange={(e) => setMaxOut(e.target.value)} dir="ltr" />}
        </FormField>
      </div>
      {model.source && (
        <fieldset className="backup-choice">
          <legend>{t('backupTitle')}</legend>
          <p className="muted">
            {t('fromSource')}{' '}
            <bdi dir="ltr" className="mono">
              {model.source.uri}
            </bdi>
          </p>
          <label>
            <input type="radio" name={`backup-${model.id}`} checked={backup === 'include'} onChange={() => setBackup('include')} />{' '}
            {t('backupInclude', { size })}
          </label>
          <label>
            <input type="radio" name={`backup-${model.id}`} checked={backup === 'source'} onChange={() => setBackup('source')} data-testid="backup-source" />{' '}
            {t('backupSource', { size })}
          </label>
        </fieldset>
      )}
      <div className="row">
        <button type="submit" className="primary" disabled={save.isPending} data-testid="settings-save">
          {t('setSave')}
        </button>
        {save.isSuccess && (
          <span role="status" className="ok">
            {t('setSaved')}
          </span>
        )}
      </div>
      {save.isError && <ErrorNote error={save.error} />}
    </form>
  );
}

export function ModelSettingsForm({ models }: { models: ModelInfo[] | undefined }) {
  const { t } = useStrings(modelStrings);
  const [chosen, setChosen] = useState<string | null>(null);
  if (!models || models.length === 0) return null;
  const model = models.find((m) => m.id === chosen) ?? models[0];
  if (!model) return null;
  return (
    <section className="card" aria-labelledby="model-settings-title">
      <h2 id="model-settings-title">{t('settingsTitle')}</h2>
      <FormField label={t('settingsModel')}>
        {(p) => (
          <select {...p} value={model.id} onChange={(e) => setChosen(e.target.value)} dir="ltr" data-testid="settings-model">
            {models.map((m) => (
              <option key={m.id} value={m.id} translate="no">
                {m.id}
              </option>
            ))}
          </select>
        )}
      </FormField>
      <SettingsOf key={model.id} model={model} />
    </section>
  );
}
