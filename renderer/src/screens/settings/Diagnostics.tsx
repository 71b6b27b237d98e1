// Settings → Diagnostics: the checks of `sanad doctor` (GET /admin/diagnostics, the same code),
// one line each with its mark, its label in the chosen language, what was found and the fix, both
// worded from the server's sayings in the chosen language (paths and versions kept as they are).
import { useMutation, useQuery } from '@tanstack/react-query';
import { api, download } from '../../api/http';
import { ErrorNote } from '../../components/ErrorNote';
import { useStrings } from '../../i18n/i18n';
import { Said } from '../../said/Said';
import { DiagnosticList } from './api';
import { settingsStrings } from './strings';
import { WithCode } from '../../components/WithCode';
import { isolate } from '../bidi';

const MARK = { ok: '✓', warn: '!', fail: '✗' } as const;
const TONE = { ok: 'ok', warn: 'warn', fail: 'fail' } as const;
const LABELED = ['node', 'restic', 'rclone', 'age', 'keychain', 'data_dir', 'store', 'disk', 'port', 'backup', 'drill', 'recovery_kit'] as const;
type Labeled = (typeof LABELED)[number];
const isLabeled = (name: string): name is Labeled => LABELED.some((l) => l === name);

export function Diagnostics() {
  const { t } = useStrings(settingsStrings);
  const checks = useQuery({ queryKey: ['diagnostics', 'settings-screen'], queryFn: () => api('GET', '/admin/diagnostics', DiagnosticList) });
  // "Save diagnostics": the archive of `sanad doctor --bundle`, saved by the browser as a download.
  const save = useMutation({
    mutationFn: () => download('/admin/diagnostics/bundle'),
    onSuccess: ({ blob, name }) => {
      const url = URL.createObjectURL(blob);
      const a = document.createElement('a');
      a.href = url;
      a.download = name;
      a.click();
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
    },
  });
  const label = (name: string): string => {
    if (name.startsWith('repo:')) return t('diag_repo', { name: isolate(name.slice('repo:'.length)) });
    return isLabeled(name) ? t(`diag_${name}`) : name;
  };
  return (
    <section className="card" aria-labelledby="settings-diagnostics">
      <h2 id="settings-diagnostics">{t('diagnostics')}</h2>
      <p className="muted small">
        <WithCode text={t('diagnosticsHelp')} />
      </p>
      {checks.isPending && <p className="muted">{t('diagnosticsRunning')}</p>}
      {checks.isError && <ErrorNote error={checks.error} onRetry={() => void checks.refetch()} />}
      {checks.data && (
        <ul className="diagnostics" data-testid="diagnostics">
          {checks.data.data.map((c) => (
            <li key={c.name} className={`diag diag-${c.status}`} data-check={c.name} data-status={c.status}>
              <span className={`badge ${TONE[c.status]}`} aria-label={t(`diag_status_${c.status}`)}>
                {MARK[c.status]}
              </span>{' '}
              <strong>{label(c.name)}</strong>: <Said said={c} />
              {c.fix_said !== null && (
                <div className="muted small">
                  → <Said said={{ ...c.fix_said, detail: c.fix ?? undefined }} />
                </div>
              )}
            </li>
          ))}
        </ul>
      )}
      <div className="row">
        <button type="button" onClick={() => void checks.refetch()} disabled={checks.isFetching} data-testid="diagnostics-again">
          {t('diagnosticsAgain')}
        </button>
        <button type="button" onClick={() => save.mutate()} disabled={save.isPending} data-testid="diagnostics-save">
          {save.isPending ? t('diagnosticsSaving') : t('diagnosticsSave')}
        </button>
      </div>
      <p className="muted small">{t('diagnosticsSaveHelp')}</p>
      {save.isError && <ErrorNote error={save.error} />}
    </section>
  );
}
