// Rotating the backup passphrase (POST /admin/passphrase/rotate): a confirmation that says what it
// changes before anything runs, then the server's report: per repository, warnings and what to do
// now (the server's own sentences).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../../api/http';
import { ErrorNote } from '../../components/ErrorNote';
import { useStrings } from '../../i18n/i18n';
import { RotationReport } from './api';
import { settingsStrings } from './strings';

function Report({ report }: { report: RotationReport }) {
  const { t } = useStrings(settingsStrings);
  return (
    <div className="rotation-report" role="status" data-testid="rotation-report">
      <p className="ok">{t('rotated')}</p>
      <ul>
        {report.repositories.map((r) => (
          <li key={r.name} className={r.ok ? '' : 'warn'}>
            {r.skipped !== null
              ? t('repoSkipped', { name: r.name, why: r.skipped })
              : !r.ok
                ? t('repoFailed', { name: r.name })
                : r.old_keys_removed
                  ? t('repoRotated', { name: r.name })
                  : t('repoRotatedOldKept', { name: r.name })}
          </li>
        ))}
      </ul>
      {report.warnings.length > 0 && (
        <>
          <h3>{t('warnings')}</h3>
          <ul className="warn">
            {report.warnings.map((w) => (
              <li key={w}>{w}</li>
            ))}
          </ul>
        </>
      )}
      {report.notes.length > 0 && (
        <>
          <h3>{t('notes')}</h3>
          <ul>
            {report.notes.map((n) => (
              <li key={n}>{n}</li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}

export function PassphraseRotation() {
  const { t } = useStrings(settingsStrings);
  const client = useQueryClient();
  const [asking, setAsking] = useState(false);
  const rotate = useMutation({
    mutationFn: () => api('POST', '/admin/passphrase/rotate', RotationReport),
    onSuccess: () => {
      setAsking(false);
      // The stored kit is stale now: the status warns again and the kit text changes.
      for (const key of [['recovery-kit'], ['status'], ['diagnostics']]) void client.invalidateQueries({ queryKey: key });
    },
  });
  return (
    <section className="card" aria-labelledby="settings-rotation">
      <h2 id="settings-rotation">{t('rotation')}</h2>
      <p className="muted">{t('rotationHelp')}</p>
      <button type="button" onClick={() => setAsking(true)} disabled={asking || rotate.isPending} data-testid="rotate-open">
        {t('rotate')}
      </button>
      {asking && (
        <div
          className="confirm-dialog"
          role="alertdialog"
          aria-modal="true"
          aria-labelledby="rotate-title"
          aria-describedby="rotate-consequences"
          onKeyDown={(e) => {
            if (e.key === 'Escape' && !rotate.isPending) setAsking(false);
          }}
        >
          <h3 id="rotate-title">{t('rotateTitle')}</h3>
          <p id="rotate-consequences">{t('rotateConsequences')}</p>
          {rotate.isError && <ErrorNote error={rotate.error} />}
          <div className="row">
            <button type="button" className="danger" onClick={() => rotate.mutate()} disabled={rotate.isPending} data-testid="rotate-confirm">
              {rotate.isPending ? t('rotating') : t('rotateConfirm')}
            </button>
            <button type="button" autoFocus onClick={() => setAsking(false)} disabled={rotate.isPending}>
              {t('cancel')}
            </button>
          </div>
        </div>
      )}
      {rotate.data && <Report report={rotate.data} />}
    </section>
  );
}
