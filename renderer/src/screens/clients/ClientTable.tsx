// Every client with its permissions, when it was made and last used and from which address (dates
// in the language's format), whether it is revoked, and a revoke that asks first.
import { ConfirmAction } from '../../components/ConfirmAction';
import { ErrorNote } from '../../components/ErrorNote';
import { formatDateTime } from '../../i18n/format';
import { useStrings } from '../../i18n/i18n';
import { isScope, SCOPE_TEXT, useRevokeClient, type ClientInfo } from './api';
import { clientStrings } from './strings';
import { Verbatim } from '../../components/Verbatim';

function ClientRow({ client }: { client: ClientInfo }) {
  const { t, language } = useStrings(clientStrings);
  const revoke = useRevokeClient();
  const revoked = client.revoked_at !== null;
  return (
    <tr data-testid={`client-row-${client.name}`} data-client-id={client.id} className={revoked ? 'revoked' : undefined}>
      <td>
        <strong>
          <Verbatim>{client.name}</Verbatim>
        </strong>
      </td>
      <td>
        <ul className="scope-list">
          {client.scopes.map((s) => (
            <li key={s}>
              <code title={isScope(s) ? t(SCOPE_TEXT[s]) : s}>{s}</code>
            </li>
          ))}
        </ul>
      </td>
      <td>{formatDateTime(language, client.created_at)}</td>
      <td data-testid="client-last-use">
        {client.last_used_at === null ? <span className="muted">{t('never')}</span> : formatDateTime(language, client.last_used_at)}
        {client.last_address != null && (
          <div className="muted small">
            {t('fromAddress')} <code dir="ltr">{client.last_address}</code>
          </div>
        )}
      </td>
      <td data-testid="client-state">
        {client.revoked_at === null ? (
          <span className="badge ok">{t('active')}</span>
        ) : (
          <span className="badge fail">{t('revokedAt', { when: formatDateTime(language, client.revoked_at) })}</span>
        )}
      </td>
      <td>
        {!revoked && (
          <ConfirmAction
            label={t('revoke')}
            question={t('revokeQuestion', { name: client.name })}
            confirmLabel={t('revokeConfirm')}
            busy={revoke.isPending}
            onConfirm={() => revoke.mutate(client.id)}
            testId={`client-revoke-${client.name}`}
          />
        )}
        {revoke.isError && <ErrorNote error={revoke.error} />}
      </td>
    </tr>
  );
}

export function ClientTable({ clients }: { clients: ClientInfo[] | undefined }) {
  const { t } = useStrings(clientStrings);
  if (clients !== undefined && clients.length === 0) return <p className="muted">{t('empty')}</p>;
  return (
    <table aria-label={t('listTitle')}>
      <thead>
        <tr>
          <th>{t('colName')}</th>
          <th>{t('colScopes')}</th>
          <th>{t('colCreated')}</th>
          <th>{t('colLastUsed')}</th>
          <th>{t('colState')}</th>
          <th>{t('colActions')}</th>
        </tr>
      </thead>
      <tbody>
        {clients === undefined
          ? [0, 1].map((i) => (
              <tr key={i} aria-hidden="true">
                <td colSpan={6}>
                  <span className="skeleton" />
                </td>
              </tr>
            ))
          : clients.map((c) => <ClientRow key={c.id} client={c} />)}
      </tbody>
    </table>
  );
}
