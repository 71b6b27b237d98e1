// The compressed offsite copy: one rclone folder, how many copies to keep (0 = all) and an
// optional rclone config, saved as three settings. A blank folder turns the copy off.
import { useState } from 'react';
import { errorForParams, unplacedError } from '../../api/error-param';
import { focusControl } from '../../components/blank-field';
import { ErrorNote } from '../../components/ErrorNote';
import { FormField } from '../../components/FormField';
import { formatNumber } from '../../i18n/format';
import { useStrings } from '../../i18n/i18n';
import { useCopySettings, useSaveCopySettings, type CopySettings } from './api';
import { offsiteStrings } from './strings';
import { WithCode } from '../../components/WithCode';

const PARAMS = ['offsite_copy_destination', 'offsite_copy_keep', 'offsite_copy_rclone_config'] as const;

function CopyState({ saved }: { saved: CopySettings }) {
  const { t, language } = useStrings(offsiteStrings);
  const dest = saved.offsite_copy_destination;
  if (dest === null)
    return (
      <p className="muted" data-testid="copy-state">
        {t('copyOff')}
      </p>
    );
  return (
    <p className="ok" data-testid="copy-state">
      {saved.offsite_copy_keep === 0 ? t('copyOnAll', { dest }) : t('copyOn', { dest, keep: formatNumber(language, saved.offsite_copy_keep) })}
    </p>
  );
}

/** The most copies the setting allows (offsite_copy_keep in src/contract/settings.ts). */
const MAX_KEEP = 1000;
const keepIsValid = (keep: string): boolean => /^\d+$/.test(keep.trim()) && Number(keep) <= MAX_KEEP;

function CopyForm({ saved }: { saved: CopySettings }) {
  const { t, language } = useStrings(offsiteStrings);
  const save = useSaveCopySettings();
  const [dest, setDest] = useState(saved.offsite_copy_destination ?? '');
  const [keep, setKeep] = useState(String(saved.offsite_copy_keep));
  const [config, setConfig] = useState(saved.offsite_copy_rclone_config ?? '');
  // The number of copies is checked here, in the reader's language, before anything is sent.
  const [keepRefused, setKeepRefused] = useState(false);
  const submit = (e: React.FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (!keepIsValid(keep)) {
      setKeepRefused(true);
      return focusControl(e.currentTarget, 'copy-keep');
    }
    const blankToNull = (v: string) => (v.trim() === '' ? null : v.trim());
    save.mutate({ offsite_copy_destination: blankToNull(dest), offsite_copy_keep: Number(keep.trim()), offsite_copy_rclone_config: blankToNull(config) });
  };
  return (
    <form onSubmit={submit} noValidate aria-busy={save.isPending}>
      <CopyState saved={saved} />
      <FormField label={t('copyDest')} hint={t('copyDestHint')} error={errorForParams(save.error, ['offsite_copy_destination'])}>
        {(p) => <input {...p} value={dest} onChange={(e) => setDest(e.target.value)} spellCheck={false} dir="ltr" data-testid="copy-destination" />}
      </FormField>
      <FormField
        label={t('copyKeep')}
        hint={t('copyKeepHint')}
        error={
          keepRefused || errorForParams(save.error, ['offsite_copy_keep']) !== null ? t('copyKeepInvalid', { max: formatNumber(language, MAX_KEEP) }) : null
        }
      >
        {(p) => (
          <input
            {...p}
            type="number"
            inputMode="numeric"
            min={0}
            max={MAX_KEEP}
            step={1}
            required
            value={keep}
            onChange={(e) => {
              setKeep(e.target.value);
              setKeepRefused(false);
            }}
            className="copy-keep"
            data-testid="copy-keep"
          />
        )}
      </FormField>
      <FormField label={t('copyConfig')} hint={t('copyConfigHint')} error={errorForParams(save.error, ['offsite_copy_rclone_config'])}>
        {(p) => <input {...p} value={config} onChange={(e) => setConfig(e.target.value)} spellCheck={false} dir="ltr" data-testid="copy-config" />}
      </FormField>
      {unplacedError(save.error, PARAMS) !== null && <ErrorNote error={save.error} />}
      <div className="row">
        <button type="submit" className="primary" disabled={save.isPending} aria-busy={save.isPending} data-testid="copy-save">
          {t('copySave')}
        </button>
        {save.isSuccess && (
          <span role="status" className="ok">
            {t('copySaved')}
          </span>
        )}
      </div>
    </form>
  );
}

export function OffsiteCopySection() {
  const { t } = useStrings(offsiteStrings);
  const settings = useCopySettings();
  return (
    <section className="card offsite-copy" aria-labelledby="copy-title" data-testid="offsite-copy">
      <h2 id="copy-title">{t('copyTitle')}</h2>
      <p className="muted">
        <WithCode text={t('copyIntro')} />
      </p>
      {settings.isError && <ErrorNote error={settings.error} onRetry={() => void settings.refetch()} />}
      {settings.data === undefined ? (
        !settings.isError && (
          <div className="copy-skeleton" aria-hidden="true">
            <span className="skeleton" />
            <span className="skeleton" />
            <span className="skeleton" />
          </div>
        )
      ) : (
        <CopyForm saved={settings.data} />
      )}
    </section>
  );
}
