// The recovery kit: whether it is confirmed, the kit text on request (it holds the backup
// passphrase, so it is fetched only when asked for and not kept in the cache), a download as
// sanad-recovery-kit.txt, and the confirmation, possible only after the user says it is stored
// off this machine.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../../api/http';
import { ErrorNote } from '../../components/ErrorNote';
import { formatDateTime } from '../../i18n/format';
import { useStrings } from '../../i18n/i18n';
import { useKitStatus } from './api';
import { KitConfirmed, RecoveryKit as Kit } from './api';
import { settingsStrings } from './strings';

export const KIT_FILE_NAME = 'sanad-recovery-kit.txt';

/** Saves `text` as a file through a temporary object URL (no server round trip, no copy on disk). */
export function downloadText(name: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/plain;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked a moment later: revoking at once can cancel the download in some browsers.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export function RecoveryKit() {
  const { t, language } = useStrings(settingsStrings);
  const client = useQueryClient();
  const [shown, setShown] = useState(false);
  const [stored, setStored] = useState(false);
  const status = useKitStatus();
  const kit = useQuery({
    queryKey: ['recovery-kit', 'settings-screen'],
    queryFn: () => api('GET', '/admin/recovery-kit', Kit),
    enabled: shown,
    gcTime: 0,
    staleTime: 0,
  });
  const confirm = useMutation({
    mutationFn: () => api('POST', '/admin/recovery-kit/confirm', KitConfirmed),
    onSuccess: () => {
      setStored(false);
      for (const key of [['status'], ['recovery-kit'], ['diagnostics']]) void client.invalidateQueries({ queryKey: key });
    },
  });
  const confirmedAt = status.data?.secrets.recovery_kit_confirmed_at ?? null;
  return (
    <section className="card" aria-labelledby="settings-kit">
      <h2 id="settings-kit">{t('kit')}</h2>
      {status.isPending && <span className="skeleton" />}
      {status.isError && <ErrorNote error={status.error} onRetry={() => void status.refetch()} />}
      {status.data && (
        <p className={confirmedAt === null ? 'warn' : 'ok'} data-testid="kit-state">
          {confirmedAt === null ? t('kitNotConfirmed') : t('kitConfirmedAt', { date: formatDateTime(language, confirmedAt) })}
        </p>
      )}
      <button type="button" onClick={() => setShown(!shown)} aria-expanded={shown} data-testid="kit-show">
        {shown ? t('kitHide') : t('kitShow')}
      </button>
      {shown && (
        <div className="kit-body">
          <p className="kit-warning-text warn" role="note">
            {t('kitWarning')}
          </p>
          {kit.isPending && <span className="skeleton kit-skeleton" />}
          {kit.isError && <ErrorNote error={kit.error} onRetry={() => void kit.refetch()} />}
          {kit.data && (
            <>
              <label htmlFor="kit-text">{t('kitLabel')}</label>
              <textarea id="kit-text" className="kit-text" readOnly rows={14} value={kit.data.text} data-testid="kit-text" />
              <div className="row">
                <button type="button" onClick={() => downloadText(KIT_FILE_NAME, kit.data.text)} data-testid="kit-download">
                  {t('kitDownload')}
                </button>
              </div>
              <label className="check">
                <input type="checkbox" checked={stored} onChange={(e) => setStored(e.target.checked)} data-testid="kit-stored" />
                {t('kitStored')}
              </label>
              <div className="row">
                <button type="button" className="primary" disabled={!stored || confirm.isPending} onClick={() => confirm.mutate()} data-testid="kit-confirm">
                  {confirm.isPending ? t('kitConfirming') : t('kitConfirm')}
                </button>
                {confirm.isSuccess && (
                  <span role="status" className="ok">
                    {t('kitConfirmed')}
                  </span>
                )}
              </div>
              {confirm.isError && <ErrorNote error={confirm.error} />}
            </>
          )}
        </div>
      )}
    </section>
  );
}
