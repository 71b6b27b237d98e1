// The Offsite targets screen: every offsite repository with its state and its test/edit/remove
// actions, the form that adds S3/R2/B2, REST and rclone targets, and the compressed offsite copy.
import { ErrorNote } from '../components/ErrorNote';
import { useStrings } from '../i18n/i18n';
import { AddTarget } from './offsite/AddTarget';
import { useTargets } from './offsite/api';
import { OffsiteCopySection } from './offsite/OffsiteCopyForm';
import { offsiteStrings } from './offsite/strings';
import { TargetCard } from './offsite/TargetCard';
import './offsite.css';

export function OffsiteScreen(_props: { id: string | null }) {
  const { t } = useStrings(offsiteStrings);
  const targets = useTargets();
  return (
    <>
      <h1>{t('title')}</h1>
      <p className="muted">{t('intro')}</p>
      <section aria-labelledby="targets-title">
        <h2 id="targets-title">{t('listTitle')}</h2>
        {targets.isError && <ErrorNote error={targets.error} onRetry={() => void targets.refetch()} />}
        {targets.data === undefined && !targets.isError && (
          <div className="card" aria-hidden="true">
            <span className="skeleton" />
            <span className="skeleton" />
            <span className="skeleton" />
          </div>
        )}
        {targets.data?.length === 0 && <p className="muted">{t('empty')}</p>}
        {targets.data?.map((repo) => (
          <TargetCard key={repo.name} repo={repo} />
        ))}
        <p className="muted">{t('localElsewhere')}</p>
      </section>
      <AddTarget />
      <OffsiteCopySection />
    </>
  );
}
