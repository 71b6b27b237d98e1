// The Clients screen: pair a program with a one-time code (shown large, counting down), or make a
// token directly (shown once); see every client with its permissions and last use; revoke one.
import { ErrorNote } from '../components/ErrorNote';
import { useStrings } from '../i18n/i18n';
import { ClientTable } from './clients/ClientTable';
import { useClients } from './clients/api';
import { PairForm } from './clients/PairForm';
import { clientStrings } from './clients/strings';
import { TokenForm } from './clients/TokenForm';
import './clients.css';

export function ClientsScreen(_props: { id: string | null }) {
  const { t } = useStrings(clientStrings);
  const clients = useClients();
  return (
    <>
      <h1>{t('title')}</h1>
      <p className="muted">{t('intro')}</p>
      <div className="clients-forms">
        <PairForm />
        <TokenForm />
      </div>
      <section className="card" aria-labelledby="clients-list-title">
        <h2 id="clients-list-title">{t('listTitle')}</h2>
        {clients.isError ? <ErrorNote error={clients.error} onRetry={() => void clients.refetch()} /> : <ClientTable clients={clients.data} />}
      </section>
    </>
  );
}
