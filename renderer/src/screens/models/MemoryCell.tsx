// Whether a model is in memory: what it takes, how many answers it runs at once, how fast it last
// answered, and a button to load it now or unload it.
import { ErrorNote } from '../../components/ErrorNote';
import { formatBytes, formatNumber } from '../../i18n/format';
import { useStrings } from '../../i18n/i18n';
import { useModelMemory, type ModelInfo } from './api';
import { modelStrings } from './strings';

export function MemoryCell({ model }: { model: ModelInfo }) {
  const { t, language } = useStrings(modelStrings);
  const load = useModelMemory('load');
  const unload = useModelMemory('unload');
  const loaded = model.loaded ?? null;
  const pending = load.isPending || unload.isPending;
  return (
    <td data-testid={`model-memory-${model.id}`}>
      {loaded ? (
        <>
          <span className="badge ok">
            {t('loadedSummary', {
              bytes: formatBytes(language, loaded.memory_bytes),
              sequences: formatNumber(language, loaded.sequences),
              context: formatNumber(language, loaded.context_size),
            })}
          </span>
          <div className="model-help">
            {loaded.busy > 0 && <>{t('busyNow', { busy: formatNumber(language, loaded.busy) })} · </>}
            {loaded.last_tokens_per_second !== null &&
              t('speed', { rate: formatNumber(language, loaded.last_tokens_per_second, { maximumFractionDigits: 1 }) })}
          </div>
          <button type="button" className="secondary" disabled={pending} onClick={() => unload.mutate(model.id)} data-testid={`model-unload-${model.id}`}>
            {t('unload')}
          </button>
        </>
      ) : (
        <>
          <span className="badge">{t('notLoaded')}</span>
          <div className="model-help">{t('notLoadedHelp')}</div>
          {model.status === 'available' && (
            <button type="button" className="secondary" disabled={pending} onClick={() => load.mutate(model.id)} data-testid={`model-load-${model.id}`}>
              {load.isPending ? t('loading') : t('load')}
            </button>
          )}
        </>
      )}
      {load.isError && <ErrorNote error={load.error} />}
      {unload.isError && <ErrorNote error={unload.error} />}
    </td>
  );
}
