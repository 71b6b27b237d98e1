// The Models screen: get a model from a hub (a first choice, or any address) and follow its
// download; add a GGUF file by path (or the desktop shell's file dialog); see every registered
// model with its size, fingerprint, source and on-disk status, remove one (the file stays), and
// set a model's own settings and backup choice.
import { ErrorNote } from '../components/ErrorNote';
import { useStrings } from '../i18n/i18n';
import { AddModelForm } from './models/AddModelForm';
import { useModels } from './models/api';
import { GetModelForm } from './models/GetModelForm';
import { HubTokenForm } from './models/HubTokenForm';
import { ModelSettingsForm } from './models/ModelSettingsForm';
import { ModelTable } from './models/ModelTable';
import { PullList } from './models/PullList';
import { modelStrings } from './models/strings';
import './models.css';

export function ModelsScreen(_props: { id: string | null }) {
  const { t } = useStrings(modelStrings);
  const models = useModels();
  return (
    <>
      <h1>{t('title')}</h1>
      <p className="muted">{t('intro')}</p>
      <GetModelForm />
      <PullList />
      <section className="card" aria-labelledby="models-list-title">
        <h2 id="models-list-title">{t('listTitle')}</h2>
        {models.isError ? <ErrorNote error={models.error} onRetry={() => void models.refetch()} /> : <ModelTable models={models.data} />}
      </section>
      <ModelSettingsForm models={models.data} />
      <HubTokenForm />
      <AddModelForm />
    </>
  );
}
