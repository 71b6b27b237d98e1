import { describe, expect, test } from 'vitest';
import { canRestore, failedChecks, flowReducer, initialFlow, restoreRequest, type FlowAction, type FlowState, type RestoreOutcome } from './flow';

const run = (actions: FlowAction[], from: FlowState = initialFlow): FlowState => actions.reduce(flowReducer, from);

const OK_ABSENT = { ok: true, path: '/data/restored', state: 'absent' as const, refusal: null, reason: null };
const atTarget = run([
  { type: 'pickRepository', repo: 'local' },
  { type: 'pickGeneration', generation: 1_700_000_000 },
]);
const ready = run(
  [
    { type: 'setTarget', target: ' /data/restored ' },
    { type: 'targetChecked', target: '/data/restored', ...OK_ABSENT },
  ],
  atTarget,
);

const outcome = (ok: boolean): RestoreOutcome => ({
  ok,
  generation: 1_700_000_000,
  snapshotTime: null,
  repo: null,
  target: '/data/restored',
  checks: ok
    ? [
        { name: 'target:empty', ok: true, code: 'said.text', params: { text: 'absent' }, detail: 'absent' },
        { name: 'store:located', ok: true, code: 'said.text', params: { text: 'found' }, detail: 'found' },
      ]
    : [
        { name: 'target:empty', ok: true, code: 'said.text', params: { text: 'absent' }, detail: 'absent' },
        { name: 'item:sanad.db', ok: false, code: 'said.text', params: { text: 'sha256 differs' }, detail: 'sha256 differs' },
      ],
  error: ok ? null : 'item:sanad.db: sha256 differs; the folder was removed again.',
});

describe('restore flow', () => {
  test('repository → generation → folder: each pick moves one step; picking out of turn changes nothing', () => {
    expect(initialFlow.step).toBe('repository');
    expect(flowReducer(initialFlow, { type: 'pickGeneration', generation: 1 })).toBe(initialFlow);
    expect(flowReducer(initialFlow, { type: 'setTarget', target: '/x' })).toBe(initialFlow);
    const gen = flowReducer(initialFlow, { type: 'pickRepository', repo: 'r2' });
    expect(gen).toMatchObject({ step: 'generation', repo: 'r2', generation: null });
    expect(flowReducer(gen, { type: 'pickRepository', repo: 'local' })).toBe(gen);
    expect(atTarget).toMatchObject({ step: 'target', repo: 'local', generation: 1_700_000_000, targetCheck: { status: 'idle' } });
  });

  test('Restore stays off until the server said yes to exactly the folder shown', () => {
    const typed = flowReducer(atTarget, { type: 'setTarget', target: '/data/restored' });
    expect(canRestore(typed)).toBe(false);
    expect(flowReducer(typed, { type: 'start' })).toBe(typed);
    expect(canRestore(ready)).toBe(true);
    expect(restoreRequest(ready)).toEqual({ target: '/data/restored', generation: 1_700_000_000, repo: 'local' });
    // The user types on: the yes was for another folder.
    const changed = flowReducer(ready, { type: 'setTarget', target: '/data/restored2' });
    expect(changed.targetCheck).toEqual({ status: 'idle' });
    expect(canRestore(changed)).toBe(false);
    expect(restoreRequest(changed)).toBeNull();
    // A late answer about a folder no longer shown is dropped.
    expect(flowReducer(changed, { type: 'targetChecked', target: '/data/restored', ...OK_ABSENT })).toBe(changed);
    // Whitespace around the same folder is the same folder.
    expect(flowReducer(ready, { type: 'setTarget', target: '/data/restored' }).targetCheck.status).toBe('ok');
  });

  test('refusals are said before the click, each with its reason; a check that could not run is not a yes', () => {
    const typed = flowReducer(atTarget, { type: 'setTarget', target: '/home/me' });
    for (const refusal of ['not_empty', 'not_absolute', 'inside_live', 'is_live', 'not_a_folder', 'interrupted_restore']) {
      const s = flowReducer(typed, { type: 'targetChecked', target: '/home/me', ok: false, path: '/home/me', state: null, refusal, reason: `why: ${refusal}` });
      expect(s.targetCheck).toEqual({ status: 'refused', target: '/home/me', refusal, reason: `why: ${refusal}` });
      expect(canRestore(s)).toBe(false);
    }
    const failed = flowReducer(typed, { type: 'targetCheckFailed', target: '/home/me', message: 'Sanad did not answer.' });
    expect(failed.targetCheck).toEqual({ status: 'error', target: '/home/me', message: 'Sanad did not answer.' });
    expect(canRestore(failed)).toBe(false);
    // An "ok" without a path or state is not trusted.
    const odd = flowReducer(typed, { type: 'targetChecked', target: '/home/me', ok: true, path: null, state: null, refusal: null, reason: null });
    expect(odd.targetCheck.status).toBe('refused');
  });

  test('start → started → finished: the checklist; answers for another job are ignored', () => {
    const started = run([{ type: 'start' }], ready);
    expect(started).toMatchObject({ step: 'restoring', jobId: null });
    expect(flowReducer(started, { type: 'back' })).toBe(started);
    expect(flowReducer(started, { type: 'reset' })).toBe(started);
    const withId = flowReducer(started, { type: 'started', id: 1 });
    expect(withId.jobId).toBe(1);
    expect(flowReducer(withId, { type: 'started', id: 2 })).toBe(withId);
    expect(flowReducer(withId, { type: 'finished', id: 3, outcome: outcome(true) })).toBe(withId);
    const done = flowReducer(withId, { type: 'finished', id: 1, outcome: outcome(true) });
    expect(done).toMatchObject({ step: 'done', outcome: outcome(true) });
    expect(failedChecks(done.outcome)).toEqual([]);
  });

  test('a failed restore ends in the checklist with its failure; it cannot be opened; start again', () => {
    const done = run([{ type: 'start' }, { type: 'started', id: 7 }, { type: 'finished', id: 7, outcome: outcome(false) }], ready);
    expect(done.step).toBe('done');
    expect(failedChecks(done.outcome)).toEqual([
      { name: 'item:sanad.db', ok: false, code: 'said.text', params: { text: 'sha256 differs' }, detail: 'sha256 differs' },
    ]);
    expect(flowReducer(done, { type: 'openRequested' })).toBe(done);
    expect(flowReducer(done, { type: 'reset' })).toEqual(initialFlow);
  });

  test('a start the server refuses goes back to the folder: a refused folder is marked, anything else is an error note', () => {
    const started = flowReducer(ready, { type: 'start' });
    const refused = flowReducer(started, { type: 'startFailed', message: '/data/restored is not empty (1 entries)', refusal: 'server' });
    expect(refused).toMatchObject({ step: 'target', startError: '/data/restored is not empty (1 entries)' });
    expect(refused.targetCheck).toEqual({ status: 'refused', target: '/data/restored', refusal: 'server', reason: '/data/restored is not empty (1 entries)' });
    expect(canRestore(refused)).toBe(false);
    const busy = flowReducer(started, { type: 'startFailed', message: 'A restore is already running.' });
    expect(busy).toMatchObject({ step: 'target', startError: 'A restore is already running.', targetCheck: ready.targetCheck });
    expect(canRestore(busy)).toBe(true);
    // Typing clears the note.
    expect(flowReducer(busy, { type: 'setTarget', target: '/elsewhere' }).startError).toBeNull();
  });

  test('passphrase branch: refused own passphrase asks for the kit; a refused kit passphrase says so; it goes with the restore', () => {
    const gen = flowReducer(initialFlow, { type: 'pickRepository', repo: 'r2' });
    const ask = flowReducer(gen, { type: 'passphraseNeeded' });
    expect(ask).toMatchObject({ step: 'passphrase', passphrase: null, passphraseRefused: false });
    expect(flowReducer(ask, { type: 'submitPassphrase', passphrase: '   ' })).toBe(ask);
    const given = flowReducer(ask, { type: 'submitPassphrase', passphrase: ' abcde-fghij ' });
    expect(given).toMatchObject({ step: 'generation', passphrase: 'abcde-fghij', passphraseAttempt: 1 });
    const again = flowReducer(given, { type: 'passphraseNeeded' });
    expect(again).toMatchObject({ step: 'passphrase', passphrase: null, passphraseRefused: true });
    const second = flowReducer(again, { type: 'submitPassphrase', passphrase: 'right-one' });
    expect(second).toMatchObject({ step: 'generation', passphrase: 'right-one', passphraseAttempt: 2, passphraseRefused: false });
    const end = run(
      [
        { type: 'pickGeneration', generation: 5 },
        { type: 'setTarget', target: '/new' },
        { type: 'targetChecked', target: '/new', ok: true, path: '/new', state: 'empty', refusal: null, reason: null },
      ],
      second,
    );
    expect(restoreRequest(end)).toEqual({ target: '/new', generation: 5, repo: 'r2', passphrase: 'right-one' });
    // Outside the generation step, "passphrase needed" changes nothing.
    expect(flowReducer(end, { type: 'passphraseNeeded' })).toBe(end);
  });

  test('back: folder → generation → repository; another repository forgets the passphrase, the same keeps it', () => {
    const g = flowReducer(ready, { type: 'back' });
    expect(g).toMatchObject({ step: 'generation', targetCheck: { status: 'idle' } });
    expect(canRestore(g)).toBe(false);
    const r = flowReducer(g, { type: 'back' });
    expect(r.step).toBe('repository');
    const withKit = run([
      { type: 'pickRepository', repo: 'r2' },
      { type: 'passphraseNeeded' },
      { type: 'submitPassphrase', passphrase: 'kit' },
      { type: 'back' },
    ]);
    expect(withKit).toMatchObject({ step: 'repository', passphrase: 'kit' });
    expect(flowReducer(withKit, { type: 'pickRepository', repo: 'r2' }).passphrase).toBe('kit');
    expect(flowReducer(withKit, { type: 'pickRepository', repo: 'local' }).passphrase).toBeNull();
    expect(flowReducer(run([{ type: 'pickRepository', repo: 'x' }, { type: 'passphraseNeeded' }]), { type: 'back' }).step).toBe('repository');
  });

  test('open the restored data: only after success, only after a confirmation; cancel, accept, wait, fail and retry', () => {
    const done = run([{ type: 'start' }, { type: 'started', id: 7 }, { type: 'finished', id: 7, outcome: outcome(true) }], ready);
    expect(flowReducer(done, { type: 'openConfirmed' })).toBe(done);
    const confirming = flowReducer(done, { type: 'openRequested' });
    expect(confirming.open).toEqual({ status: 'confirming' });
    expect(flowReducer(confirming, { type: 'openCancelled' }).open).toEqual({ status: 'idle' });
    const requesting = flowReducer(confirming, { type: 'openConfirmed' });
    expect(requesting.open).toEqual({ status: 'requesting' });
    expect(flowReducer(requesting, { type: 'openRequested' })).toBe(requesting);
    const waiting = flowReducer(requesting, { type: 'openAccepted', loginUrl: 'http://127.0.0.1:7437/login?code=abc', dataDir: '/data/restored' });
    expect(waiting.open).toEqual({ status: 'waiting', loginUrl: 'http://127.0.0.1:7437/login?code=abc', dataDir: '/data/restored' });
    const failed = flowReducer(waiting, { type: 'openFailed', message: 'did not come back' });
    expect(failed.open).toEqual({ status: 'failed', message: 'did not come back' });
    expect(flowReducer(failed, { type: 'openRequested' }).open).toEqual({ status: 'confirming' });
    expect(flowReducer(requesting, { type: 'openFailed', message: 'A backup is running.' }).open.status).toBe('failed');
    expect(flowReducer(done, { type: 'openAccepted', loginUrl: 'x', dataDir: 'y' })).toBe(done);
  });
});
