// The downloads: each running one as a real progress bar (bytes, rate, time left) with Cancel
// (which deletes what arrived); one waiting for the one before it says so; the last few ended
// ones say how they ended (a failure with its reason and Try again, which resumes what arrived).
import { ErrorNote } from '../../components/ErrorNote';
import { ProgressBar } from '../../components/ProgressBar';
import { formatBytes, formatDuration } from '../../i18n/format';
import { useStrings } from '../../i18n/i18n';
import type { Pull } from '../../../../src/contract/pulls';
import { pullIsLive, useCancelPull, usePulls, useStartPull } from './pull-api';
import { modelStrings } from './strings';

function PullRow({ pull }: { pull: Pull }) {
  const { t, language } = useStrings(modelStrings);
  const cancel = useCancelPull();
  const retry = useStartPull();
  const p = pull.progress;
  const step = (() => {
    if (pull.status === 'waiting') return t('pullWaiting');
    if (!p) return t('pullStarting');
    if (p.phase === 'verifying') return t('pullVerifying');
    const rate = p.rate > 0 ? t('pullRate', { rate: formatBytes(language, Math.round(p.rate)) }) : '';
    const eta = p.eta !== null ? t('pullEta', { eta: formatDuration(language, p.eta) }) : '';
    return [t('pullDownloading', { file: pull.file_name }), rate, eta].filter(Boolean).join(' · ');
  })();
  return (
    <li className="pull" data-testid={`pull-${pull.status}`} data-pull={pull.id}>
      <div className="row">
        <bdi dir="ltr" className="mono">
          {pull.uri}
        </bdi>
        {pullIsLive(pull) && (
          <button type="button" onClick={() => cancel.mutate(pull.id)} disabled={cancel.isPending} data-testid="pull-cancel">
            {t('pullCancel')}
          </button>
        )}
      </div>
      {pullIsLive(pull) && (
        <ProgressBar
          label={t('pullLabel', { id: pull.model_id })}
          value={{ fraction: p && p.total > 0 ? p.bytes / p.total : null, bytesDone: p?.bytes ?? 0, bytesTotal: pull.size_bytes, step }}
        />
      )}
      {pull.status === 'done' && <p className="ok">{t('pullDone', { id: pull.model_id })}</p>}
      {pull.status === 'cancelled' && <p className="muted">{t('pullCancelled')}</p>}
      {pull.status === 'failed' && (
        <div className="warn">
          <p>{t('pullFailed', { reason: pull.error ?? '' })}</p>
          <button type="button" onClick={() => retry.mutate({ uri: pull.uri, id: pull.model_id })} disabled={retry.isPending} data-testid="pull-retry">
            {t('pullRetry')}
          </button>
        </div>
      )}
      {(cancel.isError || retry.isError) && <ErrorNote error={cancel.error ?? retry.error} />}
    </li>
  );
}

export function PullList() {
  const { t } = useStrings(modelStrings);
  const pulls = usePulls();
  if (pulls.isError) return <ErrorNote error={pulls.error} onRetry={() => void pulls.refetch()} />;
  // Running and waiting ones, and the last five ended.
  const shown = (pulls.data ?? []).filter((p, i) => pullIsLive(p) || i < 5);
  if (shown.length === 0) return null;
  return (
    <section className="card" aria-labelledby="pulls-title" data-testid="pulls">
      <h2 id="pulls-title">{t('pullsTitle')}</h2>
      <ul className="pulls">
        {shown.map((p) => (
          <PullRow key={p.id} pull={p} />
        ))}
      </ul>
    </section>
  );
}
