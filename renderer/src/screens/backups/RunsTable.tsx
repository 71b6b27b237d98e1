// The recent backup runs: the one run table (components/RunTable.tsx) with the backup's own column,
// its result per repository (the snapshot it made, or the error). A run Sanad was stopped in the
// middle of is settled at the next start and shows as "Interrupted", with the reason in the
// reader's language.
import { RunTable } from '../../components/RunTable';
import { useStrings } from '../../i18n/i18n';
import { useBackupRuns, type BackupCopy } from './api';
import { shortId } from './GenerationsTable';
import { runStrings } from './strings';
import { isolate } from '../bidi';

export function CopyLine({ copy }: { copy: BackupCopy }) {
  const { t } = useStrings(runStrings);
  const ok = copy.ok === 1;
  return (
    <li className={ok ? 'ok' : 'fail'} data-repository={copy.repository} data-ok={ok}>
      {ok
        ? t('copyOk', { repo: isolate(copy.repository), id: isolate(shortId(copy.snapshot_id ?? '')) })
        : t('copyFailed', { repo: isolate(copy.repository), error: copy.error ?? '' })}
    </li>
  );
}

export function RunsTable({ backupRunning }: { backupRunning: boolean }) {
  const { t } = useStrings(runStrings);
  const copies = useBackupRuns().data?.copies ?? [];
  return (
    <RunTable
      kind="backup"
      title={t('title')}
      empty={t('none')}
      testId="backup-runs"
      openNow={backupRunning}
      explain={(run) => (run.status === 'interrupted' ? t('interruptedWhy') : null)}
      details={{
        header: t('repositories'),
        cell: (run) => (
          <ul className="plain-list">
            {copies
              .filter((c) => c.run_id === run.id)
              .map((c) => (
                <CopyLine key={c.repository} copy={c} />
              ))}
          </ul>
        ),
      }}
    />
  );
}
