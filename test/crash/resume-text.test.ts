// A task killed mid-generation, seen by a client across the crash. `resume` must continue right
// after the committed text (nothing repeated, nothing lost); `retry` must start over and say so
// with `response.queued`, after which its deltas alone make the final text.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import type { OnRestart } from '../../src/tasks/types.js';
import { num, str, waitFor, type Api } from '../harness/api.js';
import { readSse, type SseFrame } from '../harness/sse.js';
import {
  asRecord,
  assertFinishedLog,
  clientText,
  createBackground,
  deltaText,
  eventLog,
  finalText,
  killAllServices,
  prepareCrashDataDir,
  readCrashedStore,
  startService,
  taskStatus,
  waitAllTerminal,
  waitGenerating,
  type WireEvent,
} from './crash-kit.js';

after(killAllServices);

const MAX_TOKENS = 1000;

function toEvents(frames: readonly SseFrame[]): WireEvent[] {
  return frames.map((f) => ({ type: str(f.data, 'type'), sequence_number: num(f.data, 'sequence_number'), data: asRecord(f.data) }));
}

interface Watched {
  policy: OnRestart;
  taskId: string;
  responseId: string;
  /** Frames a live SSE client received from the first process, up to its death. */
  seen: SseFrame[];
  /** That client's stream; it ends (with an error) once the dead process's socket is drained. */
  stream: Promise<unknown>;
}

/**
 * The same request run without a crash. The tiny model decodes greedily and deterministically on
 * one machine, so a resume that repeated or skipped text would not match it.
 */
async function uninterruptedText(api: Api): Promise<string> {
  const reference = await createBackground(api, 'fail', MAX_TOKENS);
  await waitAllTerminal(api, [reference.taskId]);
  return finalText(api, reference.responseId, await eventLog(api, reference.taskId));
}

test('resume continues after the committed text; retry starts over after response.queued', { timeout: 120_000 }, async () => {
  const { dataDir, adminToken } = await prepareCrashDataDir({ max_concurrent_generations: 2 });
  const first = await startService(dataDir, adminToken);
  const watched: Watched[] = [];
  try {
    for (const policy of ['resume', 'retry'] as const) {
      const { taskId, responseId } = await createBackground(first.api, policy, MAX_TOKENS);
      const w: Watched = { policy, taskId, responseId, seen: [], stream: Promise.resolve() };
      const headers = { authorization: `Bearer ${adminToken}`, accept: 'text/event-stream' };
      // The stream dies with the process; the frames it delivered stay in `seen`.
      const keep = (_frame: SseFrame, all: SseFrame[]): boolean => {
        w.seen = all;
        return false;
      };
      w.stream = readSse(`${first.url}/v1/tasks/${taskId}/events`, { headers }, keep, 60_000).catch(() => undefined);
      watched.push(w);
    }
    await waitGenerating(
      first.api,
      watched.map((w) => w.taskId),
      40,
    );
    // And the clients have text on screen too (the stream trails the commits by a moment).
    await waitFor(() => watched.every((w) => w.seen.length >= 20), 20_000, 'both streams to deliver text');
  } finally {
    await first.kill();
  }
  // Every frame that reached the client before the socket closed is now in `seen`.
  await Promise.all(watched.map((w) => w.stream));

  const found = readCrashedStore(dataDir);
  for (const w of watched) {
    const f = found.get(w.taskId);
    assert.ok(f);
    assert.equal(f.status, 'running', `${w.policy} task found running`);
    // The ledger publishes only committed events: everything the client saw survived the crash.
    const seen = toEvents(w.seen);
    assert.ok(seen.length > 0 && seen.length <= f.events.length, `${w.policy}: the client saw ${seen.length} of ${f.events.length} stored events`);
    assert.deepEqual(
      seen.map((e) => `${e.sequence_number} ${e.type}`),
      f.events.slice(0, seen.length).map((e) => `${e.sequence_number} ${e.type}`),
    );
    assert.equal(deltaText(seen), deltaText(f.events.slice(0, seen.length)), `${w.policy}: streamed text is stored text`);
  }

  // The second process runs the two recovered tasks together, batched on a fresh context: the
  // case where node-llama-cpp's samplers once raced (src/engine/serial-sampling.ts).
  const second = await startService(dataDir, adminToken);
  try {
    // Each client reconnects where its stream broke, as the Responses API lets it.
    const resumed = watched.map((w) => {
      const lastSeen = num(w.seen.at(-1)?.data, 'sequence_number');
      const url = `${second.url}/v1/responses/${w.responseId}?stream=true&starting_after=${lastSeen}`;
      return readSse(
        url,
        { headers: { authorization: `Bearer ${adminToken}`, 'LMSP-Events': 'all' } },
        (f) => ['response.completed', 'response.failed', 'response.cancelled'].includes(f.event ?? ''),
        90_000,
      );
    });
    await waitAllTerminal(
      second.api,
      watched.map((w) => w.taskId),
    );
    const streams = await Promise.all(resumed);
    const uninterrupted = await uninterruptedText(second.api);

    for (const [i, w] of watched.entries()) {
      const what = `${w.policy} task ${w.taskId}`;
      const f = found.get(w.taskId);
      assert.ok(f);
      const events = await eventLog(second.api, w.taskId);
      assertFinishedLog(events, await taskStatus(second.api, w.taskId), what);
      assert.equal(events.at(-1)?.type, 'response.completed', what);
      const text = await finalText(second.api, w.responseId, events);
      const before = deltaText(f.events);
      assert.ok(before.length > 0, `${what}: text was committed before the crash`);

      // The reconnected client's view: no gap, no repeat, and it ends with the same text.
      const client = [...toEvents(w.seen), ...toEvents(streams[i]?.frames ?? [])];
      assert.deepEqual(
        client.map((e) => e.sequence_number),
        client.map((_, k) => k + 1),
        `${what}: the client saw 1..N across the restart`,
      );
      assert.equal(client.length, events.length, `${what}: the client saw every event`);
      assert.equal(clientText(client), text, `${what}: the client's text is the final text`);

      const recovery = events[f.last_sequence_number];
      const usage = await second.api.get(`/v1/responses/${w.responseId}`);
      if (w.policy === 'resume') {
        assert.equal(recovery?.type, 'response.in_progress', what);
        assert.equal(recovery?.data.resumed, true, `${what}: in_progress resumed:true right after the crash`);
        assert.equal(text, deltaText(events), `${what}: final text is all deltas, in order`);
        assert.ok(text.startsWith(before), `${what}: the pre-crash text is a prefix`);
        assert.ok(text.length > before.length, `${what}: generation continued`);
        assert.equal(text, uninterrupted, `${what}: same text as a run without the crash`);
        assert.ok(!events.some((e) => e.type === 'response.queued'), `${what}: never re-queued`);
        assert.ok(num(usage.body, 'usage', 'output_tokens') <= MAX_TOKENS, `${what}: the resumed budget counts the snapshot`);
      } else {
        assert.equal(recovery?.type, 'response.queued', what);
        assert.equal(recovery?.data.reason, 'server_restarted', what);
        const afterQueued = events.slice(f.last_sequence_number + 1);
        assert.equal(text, deltaText(afterQueued), `${what}: the deltas after response.queued alone make the text`);
        assert.equal(deltaText(events), before + text, `${what}: partial text stays in the log, dropped by the client`);
        assert.equal(num(usage.body, 'usage', 'output_tokens'), MAX_TOKENS, `${what}: the new attempt had the whole budget`);
        assert.equal(text, uninterrupted, `${what}: same text as a run without the crash`);
      }
    }
  } finally {
    await second.kill();
  }
});

test('a resumed generation killed again resumes again, ending with the uncrashed text', { timeout: 120_000 }, async () => {
  const { dataDir, adminToken } = await prepareCrashDataDir();
  const snapshots: string[] = [];
  const resumedAt: number[] = [];
  let taskId = '';
  let responseId = '';
  for (let life = 0; life < 2; life++) {
    const service = await startService(dataDir, adminToken);
    try {
      if (life === 0) ({ taskId, responseId } = await createBackground(service.api, 'resume', MAX_TOKENS));
      const committed = (await taskStatus(service.api, taskId)).last_sequence_number;
      // Killed each time with 30 more events committed than it started this life with.
      await waitGenerating(service.api, [taskId], committed + 30);
    } finally {
      await service.kill();
    }
    const found = readCrashedStore(dataDir).get(taskId);
    assert.equal(found?.status, 'running', `found running after kill ${life + 1}`);
    snapshots.push(deltaText(found.events));
    resumedAt.push(found.last_sequence_number + 1);
  }
  const last = await startService(dataDir, adminToken);
  try {
    await waitAllTerminal(last.api, [taskId]);
    const events = await eventLog(last.api, taskId);
    assertFinishedLog(events, await taskStatus(last.api, taskId), taskId);
    assert.equal(events.at(-1)?.type, 'response.completed');
    assert.deepEqual(
      events.filter((e) => e.data.resumed === true).map((e) => e.sequence_number),
      resumedAt,
      'resumed right after each crash',
    );
    const text = await finalText(last.api, responseId, events);
    assert.equal(text, deltaText(events), 'final text is all deltas, in order');
    const [first = '', second = ''] = snapshots;
    assert.ok(first.length > 0 && second.startsWith(first) && second.length > first.length, 'the second life continued the first');
    assert.ok(text.startsWith(second), 'the final text continues the second snapshot');
    assert.equal(text, await uninterruptedText(last.api), 'same text as a run without crashes');
  } finally {
    await last.kill();
  }
});
