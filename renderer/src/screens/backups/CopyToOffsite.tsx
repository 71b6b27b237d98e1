// "Copy to offsite now": the newest backup, copied to each offsite target that does not have it
// yet (one that was unreachable or unplugged at the last backup), without making a new one. Shown
// only when there is an offsite target; each target's outcome in the reader's words.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/http';
import { ErrorNote } from '../../components/ErrorNote';
import { useStrings } from '../../i18n/i18n';
import { Said } from '../../said/Said';
import { OffsiteCatchUp } from '../../../../src/contract/backups';
import type { BackupStatus } from './api';
import { backupStrings } from './strings';

export function CopyToOffsite({ status, running }: { status: BackupStatus; running: boolean }) {
  const { t } = useStrings(backupStrings);
  const client = useQueryClient();
  const copy = useMutation({
    mutationFn: () => api('POST', '/admin/backups/offsite-copy', OffsiteCatchUp, {}),
    onSettled: () => void client.invalidateQueries({ queryKey: ['backups'] }),
  });
  const offsite = status.repositories.filter((r) => r.type !== 'local' && r.enabled);
  if (offsite.length === 0) return null;
  const behind = offsite.filter((r) => r.failing).length;
  const done = copy.data;
  return (
    <div className="copy-offsite" data-testid="copy-offsite">
      <div className="row spread">
        <p className="muted">{behind > 0 ? t('copyBehind', { count: behind, n: behind }) : t('copyHint')}</p>
        <button type="button" data-testid="copy-offsite-now" disabled={running || copy.isPending} onClick={() => copy.mutate()}>
          {copy.isPending ? t('copyingNow') : t('copyNow')}
        </button>
      </div>
      {copy.error && <ErrorNote error={copy.error} />}
      {done && (
        <ul className="plain-list" data-testid="copy-offsite-result" aria-live="polite">
          {done.said && (
            <li>
              <Said said={done.said} />
            </li>
          )}
          {done.targets.map((target) => (
            <li key={target.name} data-status={target.status} className={target.status === 'failed' ? 'warn' : undefined}>
              <Said said={target.said} />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
