// The choosing steps of the restore flow: repository, generation (or the recovery-kit passphrase
// when this machine's own does not open the repository), and the folder, checked by the server
// while the user types so a refusal is said before the click. Each step only dispatches to the
// flow reducer (flow.ts), which decides what comes next.
import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useState, type Dispatch, type FormEvent } from 'react';
import { ApiError } from '../../api/http';
import { ErrorNote, useErrorText } from '../../components/ErrorNote';
import { formatBytes, formatDateTime } from '../../i18n/format';
import { useStrings } from '../../i18n/i18n';
import { desktopBridge } from '../../platform';
import { useBackupStatus } from '../backups/api';
import { shortId } from '../backups/GenerationsTable';
import { checkTarget, useFlowGenerations } from './api';
import { canRestore, type FlowAction, type FlowState } from './flow';
import { isolate } from '../bidi';
import { restoreStrings } from './strings';
import { Said } from '../../said/Said';
import { Verbatim } from '../../components/Verbatim';

interface StepProps {
  state: FlowState;
  dispatch: Dispatch<FlowAction>;
}

export function RepositoryStep({ state, dispatch }: StepProps) {
  const { t } = useStrings(restoreStrings);
  const status = useBackupStatus();
  const repos = status.data?.repositories ?? [];
  const [chosen, setChosen] = useState<string | null>(state.repo);
  const selected = chosen ?? repos[0]?.name ?? null;
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        if (selected !== null) dispatch({ type: 'pickRepository', repo: selected });
      }}
    >
      <fieldset>
        <legend>{t('pickRepository')}</legend>
        {status.isPending && <span className="skeleton" />}
        {status.error && <ErrorNote error={status.error} onRetry={() => void status.refetch()} />}
        {status.data && repos.length === 0 && <p className="muted">{t('noRepositories')}</p>}
        {repos.map((r) => (
          <label key={r.name} className="choice">
            <input
              type="radio"
              name="repository"
              value={r.name}
              checked={selected === r.name}
              onChange={() => setChosen(r.name)}
              data-testid={`restore-repo-${r.name}`}
            />
            <span>
              <strong>
                <Verbatim>{r.name}</Verbatim>
              </strong>{' '}
              <span className="muted">
                (<Verbatim>{r.type}</Verbatim>)
              </span>{' '}
              <bdi dir="ltr" className="muted mono">
                {r.location}
              </bdi>
            </span>
          </label>
        ))}
      </fieldset>
      <div className="row">
        <button type="submit" className="primary" disabled={selected === null} data-testid="restore-next">
          {t('next')}
        </button>
      </div>
    </form>
  );
}

export function GenerationStep({ state, dispatch }: StepProps) {
  const { t, language } = useStrings(restoreStrings);
  const q = useFlowGenerations(state);
  const [chosen, setChosen] = useState<number | null>(null);
  const list = q.data ?? [];
  const selected = chosen ?? list[0]?.generation ?? null;
  const needsPassphrase = q.error instanceof ApiError && q.error.code === 'passphrase_refused';
  useEffect(() => {
    if (needsPassphrase) dispatch({ type: 'passphraseNeeded' });
  }, [needsPassphrase, dispatch]);
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        if (selected !== null) dispatch({ type: 'pickGeneration', generation: selected });
      }}
    >
      <fieldset>
        <legend>{t('pickGeneration')}</legend>
        {q.isPending && (
          <>
            <p className="muted">{t('loadingGenerations')}</p>
            <span className="skeleton" />
            <span className="skeleton" />
          </>
        )}
        {q.error && !needsPassphrase && <ErrorNote error={q.error} onRetry={() => void q.refetch()} />}
        {q.data?.length === 0 && <p className="muted">{t('noGenerations')}</p>}
        {list.map((g, i) => (
          <label key={`${g.generation}-${g.snapshot_id}`} className="choice">
            <input
              type="radio"
              name="generation"
              value={g.generation}
              checked={selected === g.generation}
              onChange={() => setChosen(g.generation)}
              data-testid={`restore-generation-${i}`}
            />
            <span>
              <strong>{t('dataFrom', { date: formatDateTime(language, g.generation) })}</strong> {i === 0 && <span className="badge ok">{t('newest')}</span>}{' '}
              <span className="muted">
                {t('storedAt', { date: formatDateTime(language, Date.parse(g.time) / 1000), host: g.host })} · <code>{shortId(g.snapshot_id)}</code>
                {g.size_bytes !== null && ` · ${formatBytes(language, g.size_bytes)}`}
              </span>
            </span>
          </label>
        ))}
      </fieldset>
      <div className="row">
        <button type="button" onClick={() => dispatch({ type: 'back' })}>
          {t('back')}
        </button>
        <button type="submit" className="primary" disabled={selected === null} data-testid="restore-next">
          {t('next')}
        </button>
      </div>
    </form>
  );
}

export function PassphraseStep({ state, dispatch }: StepProps) {
  const { t } = useStrings(restoreStrings);
  const id = useId();
  const [value, setValue] = useState('');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    dispatch({ type: 'submitPassphrase', passphrase: value });
    setValue('');
  };
  return (
    <form onSubmit={submit} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t('passphraseTitle')}</h2>
      <p>{t('passphraseWhy', { repo: state.repo ?? '' })}</p>
      {state.passphraseRefused && (
        <p className="field-error" role="alert">
          {t('passphraseRefused')}
        </p>
      )}
      <div className="field">
        <label htmlFor={`${id}-input`}>{t('passphrase')}</label>
        <input
          id={`${id}-input`}
          type="password"
          autoComplete="off"
          spellCheck={false}
          className="path-input"
          value={value}
          onChange={(e) => setValue(e.target.value)}
          data-testid="restore-passphrase"
        />
      </div>
      <div className="row">
        <button type="button" onClick={() => dispatch({ type: 'back' })}>
          {t('back')}
        </button>
        <button type="submit" className="primary" disabled={value.trim() === ''}>
          {t('usePassphrase')}
        </button>
      </div>
    </form>
  );
}

function useDebounced<T>(value: T, ms: number): T {
  const [current, setCurrent] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setCurrent(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return current;
}

const REFUSALS = ['not_absolute', 'not_empty', 'not_a_folder', 'is_live', 'inside_live', 'contains_live', 'interrupted_restore', 'not_writable'] as const;
const isRefusal = (r: string): r is (typeof REFUSALS)[number] => REFUSALS.some((x) => x === r);

function TargetStatus({ state }: { state: FlowState }) {
  const { t } = useStrings(restoreStrings);
  const c = state.targetCheck;
  if (state.target.trim() === '') return null;
  switch (c.status) {
    case 'idle':
      return (
        <p className="muted" data-testid="target-status" data-state="checking">
          {t('checking')}
        </p>
      );
    case 'ok':
      return (
        <p className="ok" data-testid="target-status" data-state="ok">
          {c.state === 'absent' ? t('okAbsent') : t('okEmpty')}
        </p>
      );
    case 'refused':
      return (
        <div className="fail" data-testid="target-status" data-state="refused" data-refusal={c.refusal} role="alert">
          <strong>{t('refused', { why: isRefusal(c.refusal) ? t(c.refusal) : t('refusedOther') })}</strong>
          {(c.said !== undefined || c.reason !== '') && (
            <div className="check-detail" dir="auto">
              {c.said !== undefined ? <Said said={c.said} /> : c.reason}
            </div>
          )}
        </div>
      );
    case 'error':
      return (
        <p className="fail" data-testid="target-status" data-state="error" role="alert">
          {t('checkFailed', { message: c.message })}
        </p>
      );
  }
}

export function TargetStep({ state, dispatch, onRestore }: StepProps & { onRestore: () => void }) {
  const { t, language } = useStrings(restoreStrings);
  const errorText = useErrorText();
  const id = useId();
  const bridge = desktopBridge();
  const debounced = useDebounced(state.target.trim(), 300);
  // A question, not a change: asked again for every folder typed, never cached past the screen.
  const check = useQuery({
    queryKey: ['restore', 'check-target', debounced],
    queryFn: () => checkTarget(debounced),
    enabled: debounced !== '',
    staleTime: 0,
    gcTime: 0,
    retry: false,
  });
  useEffect(() => {
    if (check.data) dispatch({ type: 'targetChecked', ...check.data, target: debounced });
    else if (check.error) dispatch({ type: 'targetCheckFailed', target: debounced, message: errorText(check.error) });
    // Not on errorText: it is a new function every render, and only a new answer matters.
  }, [check.data, check.error, debounced, dispatch]);
  const pick = async () => {
    const folder = await bridge?.pickFolder();
    if (folder) dispatch({ type: 'setTarget', target: folder });
  };
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        if (canRestore(state)) onRestore();
      }}
      aria-labelledby={`${id}-title`}
    >
      <h2 id={`${id}-title`}>{t('targetTitle')}</h2>
      <p className="muted">{t('targetHelp')}</p>
      <div className="field">
        <label htmlFor={`${id}-input`}>{t('target')}</label>
        <div className="row">
          <input
            id={`${id}-input`}
            type="text"
            className="path-input"
            dir="ltr"
            spellCheck={false}
            autoComplete="off"
            value={state.target}
            onChange={(e) => dispatch({ type: 'setTarget', target: e.target.value })}
            data-testid="restore-target"
          />
          {bridge && (
            <button type="button" onClick={() => void pick()}>
              {t('chooseFolder')}
            </button>
          )}
        </div>
        <div aria-live="polite">
          <TargetStatus state={state} />
        </div>
      </div>
      <div className="field">
        <label>
          <input
            type="checkbox"
            checked={state.keepClients}
            onChange={(e) => dispatch({ type: 'setKeepClients', keep: e.target.checked })}
            data-testid="restore-keep-clients"
          />{' '}
          {t('keepClients')}
        </label>
        <p className="muted">{t('keepClientsHelp')}</p>
      </div>
      {state.startError && state.targetCheck.status !== 'refused' && (
        <p className="error-note" role="alert">
          <span dir="auto">{state.startError}</span>
        </p>
      )}
      {state.generation !== null && state.repo !== null && state.target.trim() !== '' && (
        <p className="muted">{t('summary', { date: formatDateTime(language, state.generation), repo: state.repo, target: isolate(state.target.trim()) })}</p>
      )}
      <div className="row">
        <button type="button" onClick={() => dispatch({ type: 'back' })}>
          {t('back')}
        </button>
        <button type="submit" className="primary" disabled={!canRestore(state)} data-testid="restore-start">
          {t('restore')}
        </button>
      </div>
    </form>
  );
}
