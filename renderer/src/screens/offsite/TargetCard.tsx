// One offsite target: where it is, whether backups use it, its last good copy and last error with
// their age, whether credentials are stored (never what they are), and its actions: the real
// write-and-delete test (busy while restic works, then the result in words), edit and remove.
import { useState } from 'react';
import { ConfirmAction } from '../../components/ConfirmAction';
import { ErrorNote } from '../../components/ErrorNote';
import { ProgressBar } from '../../components/ProgressBar';
import { formatDateTime, formatRelative } from '../../i18n/format';
import { useStrings } from '../../i18n/i18n';
import { useEditTarget, useRemoveTarget, useTestTarget, type Repository } from './api';
import { offsiteStrings } from './strings';
import { draftFrom, patchBody, targetTypeOf } from './target-form';
import { Said } from '../../said/Said';
import { isolate } from '../bidi';
import { TargetForm } from './TargetForm';

function When({ at }: { at: number }) {
  const { language } = useStrings(offsiteStrings);
  return (
    <time dateTime={new Date(at * 1000).toISOString()} title={formatDateTime(language, at)}>
      {formatRelative(language, at)}
    </time>
  );
}

/** Which disk a folder target is on, and whether it is connected now (as the server found it). */
function diskLine(repo: Repository, t: (key: 'diskMounted' | 'diskAway' | 'diskInternal', o?: { mount: string }) => string): string {
  const mount = repo.options.mount_point;
  if (mount === undefined) return t('diskInternal');
  return repo.connected === false ? t('diskAway', { mount: isolate(mount) }) : t('diskMounted', { mount: isolate(mount) });
}

export function TargetCard({ repo }: { repo: Repository }) {
  const { t } = useStrings(offsiteStrings);
  const [editing, setEditing] = useState(false);
  const test = useTestTarget(repo.name);
  const edit = useEditTarget(repo.name);
  const remove = useRemoveTarget(repo.name);
  const failing = repo.last_error_at !== null && (repo.last_ok_at === null || repo.last_error_at > repo.last_ok_at);
  return (
    <article className="card target-card" aria-labelledby={`target-${repo.name}`} data-testid={`target-card-${repo.name}`}>
      <header className="row target-head">
        <h3 id={`target-${repo.name}`}>
          <bdi dir="ltr" translate="no">
            {repo.name}
          </bdi>
        </h3>
        <span className="badge">{t(`type-${targetTypeOf(repo.type)}`)}</span>
        <span className={repo.enabled ? 'badge ok' : 'badge warn'} data-testid="target-enabled-state">
          {repo.enabled ? t('enabled') : t('disabled')}
        </span>
      </header>
      <dl className="target-facts">
        <dt>{t('colLocation')}</dt>
        <dd>
          <bdi className="mono" dir="ltr">
            {repo.location}
          </bdi>
        </dd>
        {repo.type === 'folder' && (
          <>
            <dt>{t('diskFact')}</dt>
            <dd data-testid="target-disk" className={repo.connected === false ? 'warn' : undefined}>
              {diskLine(repo, t)}
            </dd>
          </>
        )}
        <dt>{t('colLastOk')}</dt>
        <dd>{repo.last_ok_at === null ? <span className="muted">{t('neverOk')}</span> : <When at={repo.last_ok_at} />}</dd>
        <dt>{t('colLastError')}</dt>
        <dd className={failing ? 'fail' : undefined}>
          {repo.last_error === null || repo.last_error_at === null ? (
            <span className="muted">{t('noError')}</span>
          ) : (
            <>
              {repo.last_error_said ? <Said said={repo.last_error_said} /> : repo.last_error} (<When at={repo.last_error_at} />)
            </>
          )}
        </dd>
        <dt>{t('colSecret')}</dt>
        <dd data-testid="target-secret-state">{repo.has_secret ? t('secretStored') : <span className="muted">{t('secretNone')}</span>}</dd>
      </dl>
      <div className="row">
        <button type="button" onClick={() => test.mutate()} disabled={test.isPending} aria-busy={test.isPending} data-testid={`target-test-${repo.name}`}>
          {t('test')}
        </button>
        <button type="button" onClick={() => setEditing((v) => !v)} aria-expanded={editing} data-testid={`target-edit-${repo.name}`}>
          {t('edit')}
        </button>
        <ConfirmAction
          label={t('remove')}
          question={t('removeQuestion', { name: repo.name })}
          confirmLabel={t('removeConfirm')}
          busy={remove.isPending}
          onConfirm={() => remove.mutate()}
          testId={`target-remove-${repo.name}`}
        />
      </div>
      <div className="target-result" aria-live="polite" data-testid={`target-test-result-${repo.name}`}>
        {test.isPending && <ProgressBar label={t('test')} value={{ fraction: null, step: t('testing') }} />}
        {test.data?.ok === true && (
          <p className="ok" data-result="ok">
            {t('testOk', { name: repo.name })} {test.data.initialized ? t('testCreated') : ''}
          </p>
        )}
        {test.data?.ok === false && (
          <p className="fail" data-result="failed">
            {test.data.said ? (
              <Said said={test.data.said} />
            ) : (
              <>
                {t('testFailed', { detail: test.data.detail })} {t('testFailedHelp')}
              </>
            )}
          </p>
        )}
        {test.isError && <ErrorNote error={test.error} />}
      </div>
      {remove.isError && <ErrorNote error={remove.error} />}
      {editing && (
        <section className="target-edit" aria-label={t('editTitle', { name: repo.name })}>
          <h4>{t('editTitle', { name: repo.name })}</h4>
          <TargetForm
            mode="edit"
            initial={draftFrom(repo)}
            hasSecret={repo.has_secret === true}
            busy={edit.isPending}
            error={edit.error}
            onCancel={() => setEditing(false)}
            onSubmit={(draft) => edit.mutate(patchBody(draft), { onSuccess: () => setEditing(false) })}
          />
        </section>
      )}
      {edit.isSuccess && !editing && (
        <p role="status" className="ok">
          {t('saved')}
        </p>
      )}
    </article>
  );
}
