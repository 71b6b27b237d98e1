// The Restore screen: the one-click flow (restore/flow.ts decides, the steps in restore/ ask and
// show). The flow survives moving to another screen and back (a restore keeps running meanwhile);
// a reload starts over, and the passphrase, if one was typed, lives only in this page's memory.
import { useMutation } from '@tanstack/react-query';
import { useEffect, useReducer, useRef } from 'react';
import { ApiError } from '../api/http';
import { useErrorText } from '../components/ErrorNote';
import { useStrings } from '../i18n/i18n';
import { startRestore, useRestores, useServiceStatus } from './restore/api';
import { RunTable } from '../components/RunTable';
import { Verbatim } from '../components/Verbatim';
import { flowReducer, initialFlow, restoreRequest, type FlowState, type FlowStep } from './restore/flow';
import { DoneStep, RunningStep } from './restore/Result';
import { GenerationStep, PassphraseStep, RepositoryStep, TargetStep } from './restore/Steps';
import { restoreStrings } from './restore/strings';
import { isolate } from './bidi';
import './recovery.css';
import { useFocusOnStep } from './restore/focus-step';

/** The steps with nothing to type: the keyboard goes to their heading. */
const HEADING_STEPS = ['restoring', 'done'] as const;

let remembered: FlowState = initialFlow;

const STEPS = [
  { key: 'stepRepository', steps: ['repository'] },
  { key: 'stepGeneration', steps: ['generation', 'passphrase'] },
  { key: 'stepTarget', steps: ['target'] },
  { key: 'stepRestore', steps: ['restoring'] },
  { key: 'stepDone', steps: ['done'] },
] as const satisfies ReadonlyArray<{ key: string; steps: readonly FlowStep[] }>;

export function RestoreScreen(_props: { id: string | null }) {
  const { t } = useStrings(restoreStrings);
  const errorText = useErrorText();
  const [state, dispatch] = useReducer(flowReducer, undefined, () => remembered);
  useEffect(() => {
    remembered = state;
  }, [state]);
  const service = useServiceStatus();
  const targets = new Map((useRestores().data ?? []).map((r) => [r.id, r.target]));
  const start = useMutation({
    mutationFn: startRestore,
    onSuccess: (res) => dispatch({ type: 'started', id: res.id }),
    onError: (error) =>
      dispatch({
        type: 'startFailed',
        message: errorText(error),
        ...(error instanceof ApiError && error.param === 'target' ? { refusal: 'server' } : {}),
      }),
  });
  const onRestore = () => {
    const body = restoreRequest(state);
    if (!body) return;
    dispatch({ type: 'start' });
    start.mutate(body);
  };
  const dataDir = service.data?.service.data_dir;
  const flow = useRef<HTMLElement>(null);
  useFocusOnStep(state.step, flow, HEADING_STEPS);
  return (
    <div className="recovery-screen">
      <h1>{t('title')}</h1>
      <p className="muted">{t('intro')}</p>
      <p data-testid="serving-data-dir">{dataDir ? t('serving', { dir: isolate(dataDir) }) : <span className="skeleton" />}</p>
      <ol className="steps" aria-label={t('steps')}>
        {STEPS.map((s) => (
          <li key={s.key} aria-current={s.steps.some((x) => x === state.step) ? 'step' : undefined}>
            {t(s.key)}
          </li>
        ))}
      </ol>
      <section className="card" data-testid="restore-flow" data-step={state.step} ref={flow}>
        {state.step === 'repository' && <RepositoryStep state={state} dispatch={dispatch} />}
        {state.step === 'generation' && <GenerationStep state={state} dispatch={dispatch} />}
        {state.step === 'passphrase' && <PassphraseStep state={state} dispatch={dispatch} />}
        {state.step === 'target' && <TargetStep state={state} dispatch={dispatch} onRestore={onRestore} />}
        {state.step === 'restoring' && <RunningStep state={state} dispatch={dispatch} />}
        {state.step === 'done' && <DoneStep state={state} dispatch={dispatch} />}
      </section>
      <RunTable
        kind="restore"
        title={t('recent')}
        empty={t('noRestores')}
        testId="restore-runs"
        openNow={state.step === 'restoring'}
        details={{ header: t('into'), cell: (run) => <Verbatim>{targets.get(run.id)}</Verbatim> }}
      />
    </div>
  );
}
