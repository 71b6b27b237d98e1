// "Get a model": a first choice of small instruct models (shown with no network look-up), or any
// hf:/https: address typed. "Check" asks the service what the pull would do (the file, its size,
// the room on the disk, whether it fits the memory, what its sha256 is checked against) and says
// it in the chosen language; "Download" starts it. Progress and cancel are in the pulls below.
import { useState } from 'react';
import { errorForParams, unplacedError } from '../../api/error-param';
import { ErrorNote } from '../../components/ErrorNote';
import { FormField } from '../../components/FormField';
import { formatBytes } from '../../i18n/format';
import { useStrings } from '../../i18n/i18n';
import { CURATED_MODELS } from '../../../../src/contract/curated-models';
import type { PullPlanShown } from '../../../../src/contract/pulls';
import { usePullPlan, useStartPull } from './pull-api';
import { modelStrings } from './strings';
import { Verbatim } from '../../components/Verbatim';

const PARAMS = ['uri', 'id'] as const;

function PlanSaid({ plan }: { plan: PullPlanShown }) {
  const { t, language } = useStrings(modelStrings);
  const b = (n: number) => formatBytes(language, n);
  if (plan.already_registered !== null)
    return (
      <p role="status" className="ok">
        {t('planHave', { id: plan.already_registered })}
      </p>
    );
  const lines: string[] = [];
  if (plan.chosen_quant !== null) lines.push(t('planChose', { quant: plan.chosen_quant, count: String(plan.offered.length) }));
  lines.push(
    plan.disk_free === null
      ? t('planSizeNoDisk', { file: plan.file_name, size: b(plan.size_bytes) })
      : t('planSize', { file: plan.file_name, size: b(plan.size_bytes), free: b(plan.disk_free) }),
  );
  if (plan.memory_needed !== null && plan.memory_total !== null && plan.context_size !== null) {
    lines.push(
      t(plan.fits_memory ? 'planFits' : 'planTight', { need: b(plan.memory_needed), total: b(plan.memory_total), context: String(plan.context_size) }),
    );
  } else lines.push(t('planMemoryUnknown'));
  lines.push(
    plan.sha256_from === 'hub'
      ? t('planShaHub', { sha: plan.sha256?.slice(0, 12) ?? '' })
      : plan.sha256_from === 'given'
        ? t('planShaGiven')
        : t('planShaNone'),
  );
  return (
    <ul className="pull-plan" data-testid="pull-plan">
      <li>
        <bdi dir="ltr" className="mono">
          {plan.uri}
        </bdi>{' '}
        →{' '}
        <bdi dir="ltr">
          <strong>{plan.model_id}</strong>
        </bdi>
      </li>
      {lines.map((l) => (
        <li key={l}>{l}</li>
      ))}
    </ul>
  );
}

export function GetModelForm() {
  const { t, language } = useStrings(modelStrings);
  const plan = usePullPlan();
  const start = useStartPull();
  const [uri, setUri] = useState('');
  const [id, setId] = useState('');
  const ask = () => {
    const name = id.trim();
    return name === '' ? { uri: uri.trim() } : { uri: uri.trim(), id: name };
  };
  const change = (value: string) => {
    setUri(value);
    plan.reset();
    start.reset();
  };
  const check = (e: React.FormEvent) => {
    e.preventDefault();
    plan.mutate(ask());
  };
  const download = () =>
    start.mutate(ask(), {
      onSuccess: () => {
        setUri('');
        setId('');
        plan.reset();
      },
    });
  const error = plan.error ?? start.error;
  return (
    <form className="card" onSubmit={check} aria-labelledby="get-model-title" aria-busy={plan.isPending || start.isPending} data-testid="get-model">
      <h2 id="get-model-title">{t('getTitle')}</h2>
      <p className="muted">{t('getIntro')}</p>
      <ul className="curated" aria-label={t('curatedTitle')}>
        {CURATED_MODELS.map((m) => (
          <li key={m.uri}>
            <button
              type="button"
              className={uri === m.uri ? 'selected' : undefined}
              aria-pressed={uri === m.uri}
              onClick={() => change(m.uri)}
              data-testid="curated-model"
            >
              <strong dir="ltr">
                <Verbatim>{m.name}</Verbatim>
              </strong>
              <span className="muted">
                <Verbatim>{m.quant}</Verbatim> · {t('about', { size: formatBytes(language, m.size) })} · <Verbatim>{m.license}</Verbatim>
                {m.kind === 'embedding' && <> · {t('kindEmbedding')}</>}
              </span>
            </button>
          </li>
        ))}
      </ul>
      <FormField label={t('uri')} hint={t('uriHint')} error={errorForParams(error, ['uri'])}>
        {(p) => (
          <input
            {...p}
            className="model-path"
            value={uri}
            onChange={(e) => change(e.target.value)}
            required
            spellCheck={false}
            dir="ltr"
            placeholder="hf:OWNER/REPO:Q4_K_M"
            data-testid="pull-uri"
          />
        )}
      </FormField>
      <FormField label={t('id')} hint={t('idHint')} error={errorForParams(error, ['id'])}>
        {(p) => <input {...p} value={id} onChange={(e) => setId(e.target.value)} spellCheck={false} dir="ltr" data-testid="pull-id" />}
      </FormField>
      {plan.data && <PlanSaid plan={plan.data} />}
      <div className="row">
        <button type="submit" disabled={plan.isPending || uri.trim() === ''} data-testid="pull-check">
          {plan.isPending ? t('checking') : t('check')}
        </button>
        {plan.data && plan.data.already_registered === null && (
          <button type="button" className="primary" onClick={download} disabled={start.isPending} data-testid="pull-start">
            {t('download', { size: formatBytes(language, plan.data.size_bytes) })}
          </button>
        )}
        {start.isSuccess && (
          <span role="status" className="ok">
            {t('pullStarted', { id: start.data.model_id })}
          </span>
        )}
      </div>
      {unplacedError(error, PARAMS) !== null && <ErrorNote error={error} />}
    </form>
  );
}
