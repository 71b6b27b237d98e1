// "Let devices on this network use Sanad": the switch (the `lan_enabled` setting, kept across
// restarts), what devices use while it is on (the address, the certificate fingerprint, whether it
// is announced on the network), why it could not start, and "New certificate", which makes every
// paired device trust again (asked first). Pairing itself is on the Clients screen.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/http';
import { ConfirmAction } from '../../components/ConfirmAction';
import { ErrorNote } from '../../components/ErrorNote';
import { formatDateTime } from '../../i18n/format';
import { useStrings } from '../../i18n/i18n';
import { groupFingerprint } from '../clients/pairing-uri';
import { LanStatus, Settings } from './api';
import { networkStrings } from './network-strings';

export const LAN_KEY = ['lan', 'settings-screen'] as const;

export function NetworkDevices() {
  const { t, language } = useStrings(networkStrings);
  const client = useQueryClient();
  const lan = useQuery({ queryKey: LAN_KEY, queryFn: () => api('GET', '/admin/lan', LanStatus) });
  const refresh = (): void => {
    for (const key of [['lan'], ['settings']]) void client.invalidateQueries({ queryKey: key });
  };
  const toggle = useMutation({ mutationFn: (on: boolean) => api('PATCH', '/admin/settings', Settings, { lan_enabled: on }), onSettled: refresh });
  const renew = useMutation({ mutationFn: () => api('POST', '/admin/lan/new-certificate', LanStatus), onSettled: refresh });
  const status = lan.data;
  return (
    <section className="card" aria-labelledby="settings-lan">
      <h2 id="settings-lan">{t('lanTitle')}</h2>
      <p className="muted">{t('lanIntro')}</p>
      {lan.isPending && <span className="skeleton" />}
      {lan.isError && <ErrorNote error={lan.error} onRetry={() => void lan.refetch()} />}
      {status && (
        <>
          <label className="switch-row">
            <input
              type="checkbox"
              role="switch"
              // What the user just chose, until the core's answer arrives.
              checked={toggle.isPending && toggle.variables !== undefined ? toggle.variables : status.enabled}
              disabled={toggle.isPending}
              aria-busy={toggle.isPending}
              onChange={(e) => toggle.mutate(e.target.checked)}
              data-testid="lan-switch"
            />
            {t('lanSwitch')}
          </label>
          {toggle.isError && <ErrorNote error={toggle.error} />}
          {status.error !== null && (
            <p className="fail" role="alert" data-testid="lan-error">
              {status.error}
            </p>
          )}
          {status.running ? (
            <dl className="lan-facts" data-testid="lan-on">
              <dt>{t('lanAddress')}</dt>
              <dd>
                <code dir="ltr" data-testid="lan-url">
                  {status.url ?? t('lanNoAddress')}
                </code>
                {status.urls.length > 1 && (
                  <div className="muted small">
                    {t('lanAlso')} <code dir="ltr">{status.urls.slice(1).join(', ')}</code>
                  </div>
                )}
              </dd>
              <dt>{t('lanFingerprint')}</dt>
              <dd>
                <code dir="ltr" className="fingerprint" data-testid="lan-fingerprint">
                  {status.tls_fingerprint_sha256 === null ? '' : groupFingerprint(status.tls_fingerprint_sha256)}
                </code>
              </dd>
              <dt>{t('lanAnnounced')}</dt>
              <dd>{status.advertising ? t('lanAnnouncedYes') : t('lanAnnouncedNo')}</dd>
              {status.certificate_expires_at !== null && (
                <>
                  <dt>{t('lanRenews')}</dt>
                  <dd>{t('lanRenewsText', { date: formatDateTime(language, status.certificate_expires_at) })}</dd>
                </>
              )}
            </dl>
          ) : (
            <p className="muted" data-testid="lan-off">
              {t('lanOff')}
            </p>
          )}
          <p className="muted small">{t('lanScope')}</p>
          <ConfirmAction
            label={t('lanNewCertificate')}
            question={t('lanNewCertificateQuestion')}
            confirmLabel={t('lanNewCertificateConfirm')}
            busy={renew.isPending}
            onConfirm={() => renew.mutate()}
            testId="lan-new-certificate"
          />
          {renew.isError && <ErrorNote error={renew.error} />}
          {renew.isSuccess && (
            <p role="status" className="ok" data-testid="lan-renewed">
              {t('lanRenewed')}
            </p>
          )}
        </>
      )}
    </section>
  );
}
