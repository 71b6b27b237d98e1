// The registered models: size, fingerprint (short, with the whole value in a tooltip and a copy
// button), whether the file on disk is still the one registered and what to do if not, whether
// it is in memory (with load and unload), and a remove that asks first and says the file stays.
import { ErrorNote } from '../../components/ErrorNote';
import { ConfirmAction } from '../../components/ConfirmAction';
import { CopyButton } from '../../components/CopyButton';
import { formatBytes, formatDateTime } from '../../i18n/format';
import { useStrings } from '../../i18n/i18n';
import { useRemoveModel, type ModelInfo } from './api';
import { modelStrings } from './strings';
import { Verbatim } from '../../components/Verbatim';
import { MemoryCell } from './MemoryCell';

const STATUS_CLASS: Record<string, string> = { available: 'ok', missing: 'fail', changed: 'warn' };

function StatusCell({ status }: { status: string }) {
  const { t } = useStrings(modelStrings);
  const known = status === 'available' || status === 'missing' || status === 'changed';
  return (
    <td data-testid="model-status">
      <span className={`badge ${STATUS_CLASS[status] ?? 'warn'}`}>{known ? t(status) : t('unknown', { status })}</span>
      {known && status !== 'available' && <div className="model-help">{t(`${status}Help`)}</div>}
    </td>
  );
}

function ModelRow({ model }: { model: ModelInfo }) {
  const { t, language } = useStrings(modelStrings);
  const remove = useRemoveModel();
  return (
    <tr data-testid={`model-row-${model.id}`}>
      <td className="model-id">
        <bdi dir="ltr">
          <strong>
            <Verbatim>{model.id}</Verbatim>
          </strong>
        </bdi>
        {/* A model that makes vectors or scores, not text: said, so nobody picks it for a chat. */}
        {(model.kind === 'embedding' || model.kind === 'rerank') && (
          <span className="muted model-kind" data-testid="model-kind">
            {' '}
            {t(model.kind === 'embedding' ? 'kindEmbedding' : 'kindRerank')}
          </span>
        )}
      </td>
      <td>
        <bdi className="mono" dir="ltr">
          {model.path}
        </bdi>
        {model.source && (
          <div className="model-help" data-testid="model-source">
            {t('fromSource')}{' '}
            <bdi dir="ltr" className="mono">
              {model.source.uri}
            </bdi>
            {model.backup === 'source' && <> · {t('backupBySource')}</>}
          </div>
        )}
      </td>
      <td>{formatBytes(language, model.size_bytes)}</td>
      <td>
        <span className="mono verbatim" dir="ltr" translate="no" title={model.sha256}>
          {model.sha256.slice(0, 12)}…
        </span>{' '}
        <CopyButton value={model.sha256} label={t('copyFingerprint', { id: model.id })} />
      </td>
      <StatusCell status={model.status} />
      <MemoryCell model={model} />
      <td>{formatDateTime(language, model.created)}</td>
      <td>
        <ConfirmAction
          label={t('remove')}
          question={t('removeQuestion', { id: model.id, path: model.path ?? '' })}
          confirmLabel={t('removeConfirm')}
          busy={remove.isPending}
          onConfirm={() => remove.mutate(model.id)}
          testId={`model-remove-${model.id}`}
        />
        {remove.isError && <ErrorNote error={remove.error} />}
      </td>
    </tr>
  );
}

export function ModelTable({ models }: { models: ModelInfo[] | undefined }) {
  const { t } = useStrings(modelStrings);
  if (models !== undefined && models.length === 0) return <p className="muted">{t('empty')}</p>;
  return (
    <table aria-label={t('listTitle')}>
      <thead>
        <tr>
          <th>{t('colName')}</th>
          <th>{t('colFile')}</th>
          <th>{t('colSize')}</th>
          <th>{t('colFingerprint')}</th>
          <th>{t('colStatus')}</th>
          <th>{t('colMemory')}</th>
          <th>{t('colAdded')}</th>
          <th>{t('colActions')}</th>
        </tr>
      </thead>
      <tbody>
        {models === undefined
          ? [0, 1].map((i) => (
              <tr key={i} aria-hidden="true">
                <td colSpan={8}>
                  <span className="skeleton" />
                </td>
              </tr>
            ))
          : models.map((m) => <ModelRow key={m.id} model={m} />)}
      </tbody>
    </table>
  );
}
