// What the soak's clients do all the while, and what they saw acknowledged: answered responses
// (foreground, continued with previous_response_id, turns of a conversation), accepted background
// ones (202), cancels, deletes (the client's own, and the oldest ones once it knows of more than
// LIVE_MAX, so the store reaches a steady size), conversations made (a new one after a few turns,
// as the model's context is small) and deleted, backups and drills asked for. A request the service was killed under is not acknowledged, so it is not counted.
import { setTimeout as sleep } from 'node:timers/promises';
import { field } from '../test/harness/api.js';
import type { ServiceSlot } from './faults.js';

/** Responses kept alive at most; older ones are deleted as the client goes on. */
export const LIVE_MAX = 200;
/** Conversations kept alive at most, and turns in one before the client starts another. */
const CONVERSATIONS_MAX = 6;
const TURNS_MAX = 8;

export interface Acked {
  id: string;
  at: number;
  how: 'answered' | 'accepted' | 'continued' | 'conversation';
  conversation?: string;
}

export class SoakLedger {
  readonly acked: Acked[] = [];
  /** A delete the client asked for, answered or not (a kill may cut the answer of a delete that
   *  committed): that response may be gone. The journal alone cannot say so: its own retention
   *  (jobs/journal-retention.ts) drops entries older than the oldest generation left anywhere. */
  readonly deleteAsked = new Set<string>();
  readonly deleted = new Set<string>();
  readonly conversations: Array<{ id: string; at: number }> = [];
  readonly conversationDeleteAsked = new Set<string>();
  readonly counts = { cycles: 0, requests: 0, refused: 0, backups: 0, drills: 0, turns: 0, conversations: 0 };

  /** Every response the client knows of and has not deleted yet, oldest first: acknowledged or
   *  not (one that failed is kept by the store all the same), and one whose delete did not go
   *  through (a full disk, a kill), to be deleted again later. */
  readonly kept: string[] = [];
  liveConversations(): string[] {
    return this.conversations.filter((c) => !this.conversationDeleteAsked.has(c.id)).map((c) => c.id);
  }
}

/** A final answer: completed, or cut off at its token limit (its items are kept all the same). */
const answered = (body: unknown): boolean => ['completed', 'incomplete'].includes(String(field(body, 'status')));

const pick = <T>(xs: readonly T[], r: number): T | undefined => xs[Math.floor(r * xs.length)];

/** One client until `endAt`: each cycle draws what to do next. */
export async function client(slot: ServiceSlot, ledger: SoakLedger, rand: () => number, endAt: number): Promise<void> {
  const previous: string[] = [];
  let conversation: string | null = null;
  let turns = 0;
  const { counts } = ledger;
  while (Date.now() < endAt) {
    if (slot.restarting) {
      await slot.restarting.catch(() => undefined);
      continue;
    }
    const api = slot.current.api;
    const r = rand();
    counts.requests++;
    try {
      if (r < 0.25) {
        const res = await api.post('/v1/responses', { model: 'demo', input: `soak ${counts.requests}`, max_output_tokens: 8 });
        if (res.status === 200 && answered(res.body)) ledger.acked.push({ id: String(field(res.body, 'id')), at: Date.now(), how: 'answered' });
        if (res.status === 200) previous.push(learn(ledger, res.body));
      } else if (r < 0.43) {
        const res = await api.post('/v1/responses', { model: 'tiny', input: `background ${counts.requests}`, max_output_tokens: 24, background: true });
        if (res.status === 202 || res.status === 200) ledger.acked.push({ id: learn(ledger, res.body), at: Date.now(), how: 'accepted' });
      } else if (r < 0.5) {
        const last = previous.filter((id) => !ledger.deleteAsked.has(id)).at(-1);
        if (last !== undefined) {
          const res = await api.post('/v1/responses', { model: 'demo', input: 'and then', previous_response_id: last, max_output_tokens: 8 });
          if (res.status === 200) learn(ledger, res.body);
          if (res.status === 200 && answered(res.body)) ledger.acked.push({ id: String(field(res.body, 'id')), at: Date.now(), how: 'continued' });
        }
      } else if (r < 0.6) {
        if (conversation === null || ledger.conversationDeleteAsked.has(conversation) || turns >= TURNS_MAX || rand() < 0.1) {
          const made = await api.post('/v1/conversations', { metadata: { title: `soak ${counts.requests}` } });
          if (made.status === 200) {
            conversation = String(field(made.body, 'id'));
            turns = 0;
            ledger.conversations.push({ id: conversation, at: Date.now() });
            counts.conversations++;
          }
        } else {
          const res = await api.post('/v1/responses', { model: 'demo', conversation, input: `turn ${counts.requests}`, max_output_tokens: 16 });
          turns++;
          if (res.status === 200) learn(ledger, res.body);
          if (res.status === 200 && answered(res.body)) {
            ledger.acked.push({ id: String(field(res.body, 'id')), at: Date.now(), how: 'conversation', conversation });
            counts.turns++;
          }
        }
      } else if (r < 0.66) {
        const target = pick(ledger.acked, rand());
        if (target) await api.post(`/v1/responses/${target.id}/cancel`);
      } else if (r < 0.7) {
        const at = Math.floor(rand() * ledger.kept.length);
        const [target] = ledger.kept.splice(at, 1);
        if (target !== undefined) await deleteResponse(slot, ledger, target);
      } else if (r < 0.72) {
        const live = ledger.liveConversations();
        const target = live.length > CONVERSATIONS_MAX ? live[0] : undefined;
        if (target !== undefined) {
          ledger.conversationDeleteAsked.add(target);
          await api.request('DELETE', `/v1/conversations/${target}`);
        }
      } else if (r < 0.82) {
        if ((await api.post('/admin/backups', {})).status === 202) counts.backups++;
      } else if (r < 0.84) {
        if ((await api.post('/admin/drills', {})).status === 202) counts.drills++;
      } else {
        await sleep(200);
      }
      // A steady state: the oldest responses go once the client knows of more than LIVE_MAX.
      const oldest = ledger.kept.length > LIVE_MAX ? ledger.kept.shift() : undefined;
      if (oldest !== undefined) await deleteResponse(slot, ledger, oldest);
    } catch {
      // The service was killed under this request: not acknowledged, so not counted.
      counts.refused++;
      await sleep(200);
    }
    counts.cycles++;
  }
}

/** Keeps a response the service answered with, to delete it in time; its id. */
function learn(ledger: SoakLedger, body: unknown): string {
  const id = String(field(body, 'id'));
  ledger.kept.push(id);
  return id;
}

/** Deletes one; a delete that did not go through (not 200, not already gone) is tried again later. */
async function deleteResponse(slot: ServiceSlot, ledger: SoakLedger, id: string): Promise<void> {
  ledger.deleteAsked.add(id);
  let status = 0;
  try {
    status = (await slot.current.api.request('DELETE', `/v1/responses/${id}`)).status;
  } finally {
    if (status === 200) ledger.deleted.add(id);
    else if (status !== 404) ledger.kept.push(id);
  }
}
