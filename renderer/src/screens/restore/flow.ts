// The one-click restore as a pure state machine: pick a repository → pick a generation (newest
// data first; if this machine's passphrase does not open the repository, ask for the one in the
// recovery kit) → pick an empty or absent folder, which the server checks BEFORE the click (the
// Restore button stays off until the answer for exactly the folder shown is "ok") → restore, with
// progress → the checklist of what was verified → "open the restored data" after a confirmation.
// The screen does the talking to the API and dispatches what it heard; everything that decides
// what may happen next is here, where tests can reach every transition.

import type { Said } from '../../../../src/contract/said';

export type FlowStep = 'repository' | 'generation' | 'passphrase' | 'target' | 'restoring' | 'done';

/** The server's word on a folder: POST /admin/restore/check-target. */
export interface TargetAnswer {
  ok: boolean;
  path: string | null;
  state: 'absent' | 'empty' | null;
  refusal: string | null;
  reason: string | null;
  /** What the server checked: a refusal's failed check words the reason in the reader's language. */
  checks?: readonly RestoreCheck[];
}

export type TargetCheck =
  /** Nothing asked yet for the folder shown (or it changed since): Restore stays off. */
  | { status: 'idle' }
  | { status: 'ok'; target: string; path: string; state: 'absent' | 'empty' }
  | { status: 'refused'; target: string; refusal: string; reason: string; said?: Saying }
  | { status: 'error'; target: string; message: string };

export interface RestoreCheck extends Said {
  name: string;
  ok: boolean;
  detail: string;
}

/** A saying with the server's English beside it (shown when the GUI does not know the code). */
export type Saying = Said & { detail?: string };

export interface RestoreOutcome {
  ok: boolean;
  generation: number | null;
  /** When the restored snapshot was taken (ISO). */
  snapshotTime: string | null;
  repo: string | null;
  target: string;
  checks: RestoreCheck[];
  error: string | null;
}

export type OpenState =
  | { status: 'idle' }
  | { status: 'confirming' }
  | { status: 'requesting' }
  /** The service is restarting on the restored data; the page goes to `loginUrl` when it is back. */
  | { status: 'waiting'; loginUrl: string; dataDir: string }
  | { status: 'failed'; message: string };

export interface FlowState {
  step: FlowStep;
  repo: string | null;
  /** The recovery-kit passphrase, only in memory, only once this machine's own was refused. */
  passphrase: string | null;
  /** Counts passphrases tried, so each try is a new question to the server. */
  passphraseAttempt: number;
  /** The last passphrase given was refused too. */
  passphraseRefused: boolean;
  generation: number | null;
  target: string;
  targetCheck: TargetCheck;
  /** Keep the backup's paired clients (off: they are revoked, since a backup's store could be forged). */
  keepClients: boolean;
  jobId: number | null;
  startError: string | null;
  outcome: RestoreOutcome | null;
  open: OpenState;
}

export type FlowAction =
  | { type: 'pickRepository'; repo: string }
  | { type: 'passphraseNeeded' }
  | { type: 'submitPassphrase'; passphrase: string }
  | { type: 'pickGeneration'; generation: number }
  | { type: 'setTarget'; target: string }
  | { type: 'setKeepClients'; keep: boolean }
  | ({ type: 'targetChecked'; target: string } & TargetAnswer)
  | { type: 'targetCheckFailed'; target: string; message: string }
  | { type: 'start' }
  | { type: 'started'; id: number }
  /** The server refused to start; `refusal` when it was the folder (checked again at the click). */
  | { type: 'startFailed'; message: string; refusal?: string }
  | { type: 'finished'; id: number; outcome: RestoreOutcome }
  | { type: 'back' }
  | { type: 'openRequested' }
  | { type: 'openCancelled' }
  | { type: 'openConfirmed' }
  | { type: 'openAccepted'; loginUrl: string; dataDir: string }
  | { type: 'openFailed'; message: string }
  | { type: 'reset' };

export const initialFlow: FlowState = {
  step: 'repository',
  repo: null,
  passphrase: null,
  passphraseAttempt: 0,
  passphraseRefused: false,
  generation: null,
  target: '',
  targetCheck: { status: 'idle' },
  keepClients: false,
  jobId: null,
  startError: null,
  outcome: null,
  open: { status: 'idle' },
};

/** Restore may be clicked: everything chosen, and the server said yes to exactly this folder. */
export function canRestore(s: FlowState): boolean {
  return s.step === 'target' && s.repo !== null && s.generation !== null && s.targetCheck.status === 'ok' && s.targetCheck.target === s.target.trim();
}

/** The body of POST /admin/restore for this state (the passphrase only when one was given). */
export function restoreRequest(s: FlowState): { target: string; generation: number; repo: string; passphrase?: string; keep_clients?: true } | null {
  if (!canRestore(s) || s.repo === null || s.generation === null) return null;
  return {
    target: s.target.trim(),
    generation: s.generation,
    repo: s.repo,
    ...(s.passphrase !== null ? { passphrase: s.passphrase } : {}),
    ...(s.keepClients ? { keep_clients: true } : {}),
  };
}

export function failedChecks(outcome: RestoreOutcome | null): RestoreCheck[] {
  return outcome?.checks.filter((c) => !c.ok) ?? [];
}

export function flowReducer(s: FlowState, a: FlowAction): FlowState {
  switch (a.type) {
    case 'pickRepository':
      if (s.step !== 'repository') return s;
      // Another repository: a passphrase given for the previous one is not carried over.
      return {
        ...initialFlow,
        step: 'generation',
        repo: a.repo,
        ...(a.repo === s.repo ? { passphrase: s.passphrase, passphraseAttempt: s.passphraseAttempt } : {}),
      };
    case 'passphraseNeeded':
      if (s.step !== 'generation') return s;
      return { ...s, step: 'passphrase', passphraseRefused: s.passphrase !== null, passphrase: null, generation: null };
    case 'submitPassphrase': {
      const passphrase = a.passphrase.trim();
      if (s.step !== 'passphrase' || passphrase === '') return s;
      return { ...s, step: 'generation', passphrase, passphraseAttempt: s.passphraseAttempt + 1, passphraseRefused: false };
    }
    case 'pickGeneration':
      if (s.step !== 'generation') return s;
      return { ...s, step: 'target', generation: a.generation, startError: null };
    case 'setTarget':
      if (s.step !== 'target') return s;
      // Any change makes the earlier answer stale: Restore waits for the answer about this folder.
      return { ...s, target: a.target, targetCheck: a.target.trim() === s.target.trim() ? s.targetCheck : { status: 'idle' }, startError: null };
    case 'setKeepClients':
      if (s.step !== 'target') return s;
      return { ...s, keepClients: a.keep };
    case 'targetChecked': {
      // Answers about a folder no longer shown are dropped (the user kept typing).
      if (s.step !== 'target' || a.target !== s.target.trim()) return s;
      const targetCheck: TargetCheck =
        a.ok && a.path !== null && a.state !== null ? { status: 'ok', target: a.target, path: a.path, state: a.state } : refusedCheck(a);
      return { ...s, targetCheck };
    }
    case 'targetCheckFailed':
      if (s.step !== 'target' || a.target !== s.target.trim()) return s;
      return { ...s, targetCheck: { status: 'error', target: a.target, message: a.message } };
    case 'start':
      if (!canRestore(s)) return s;
      return { ...s, step: 'restoring', jobId: null, startError: null, outcome: null };
    case 'started':
      if (s.step !== 'restoring' || s.jobId !== null) return s;
      return { ...s, jobId: a.id };
    case 'startFailed': {
      if (s.step !== 'restoring' || s.jobId !== null) return s;
      const target = s.target.trim();
      return {
        ...s,
        step: 'target',
        startError: a.message,
        targetCheck: a.refusal !== undefined ? { status: 'refused', target, refusal: a.refusal, reason: a.message } : s.targetCheck,
      };
    }
    case 'finished':
      if (s.step !== 'restoring' || s.jobId !== a.id) return s;
      return { ...s, step: 'done', outcome: a.outcome };
    case 'back':
      switch (s.step) {
        case 'generation':
        case 'passphrase':
          return { ...s, step: 'repository', generation: null };
        case 'target':
          return { ...s, step: 'generation', targetCheck: { status: 'idle' }, startError: null };
        default:
          return s; // nothing to go back to while restoring; after it, start again
      }
    case 'openRequested':
      if (s.step !== 'done' || s.outcome?.ok !== true || (s.open.status !== 'idle' && s.open.status !== 'failed')) return s;
      return { ...s, open: { status: 'confirming' } };
    case 'openCancelled':
      return s.open.status === 'confirming' ? { ...s, open: { status: 'idle' } } : s;
    case 'openConfirmed':
      return s.open.status === 'confirming' ? { ...s, open: { status: 'requesting' } } : s;
    case 'openAccepted':
      return s.open.status === 'requesting' ? { ...s, open: { status: 'waiting', loginUrl: a.loginUrl, dataDir: a.dataDir } } : s;
    case 'openFailed':
      return s.open.status === 'requesting' || s.open.status === 'waiting' ? { ...s, open: { status: 'failed', message: a.message } } : s;
    case 'reset':
      // Not while a restore runs: its end would have nowhere to go.
      return s.step === 'restoring' ? s : initialFlow;
  }
}

function refusedCheck(a: TargetAnswer & { target: string }): TargetCheck {
  const failed = a.checks?.find((c) => !c.ok);
  const refused: Extract<TargetCheck, { status: 'refused' }> = { status: 'refused', target: a.target, refusal: a.refusal ?? 'refused', reason: a.reason ?? '' };
  return failed ? { ...refused, said: { code: failed.code, params: failed.params, detail: failed.detail } } : refused;
}
