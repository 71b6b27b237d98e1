// One completion's output as it streams into the ledger. A model that does not think writes text
// deltas into the message opened at `response.in_progress` (output 0), as always. A thinking one
// writes reasoning deltas into the reasoning item opened there instead; its first text closes the
// thought and opens the message (output 1), in the same group commit as that text, so a restart
// finds either both or neither.
import type { FunctionCallItem, ReasoningItem } from '../contract/responses.js';
import { callEvents, messageOpenEvents, reasoningDoneEvents, textDoneEvents } from './item-events.js';
import { reasoningItem } from './items.js';
import type { EventSpec, TaskLedger } from './ledger.js';

export interface AnswerLayout {
  /** The message's and the reasoning item's ids (items.ts: itemNames). */
  messageId: string;
  reasoningId: string;
  /** Whether this answer has a message at all (a forced call has none). */
  withMessage: boolean;
  /** Whether the model thinks in this request (it can, and the effort is not none). */
  thinks: boolean;
}

/** Where a resumed attempt stood when the service stopped. */
export interface Resumed {
  thought: string;
  /** The thought's end (and the message's start) was committed. */
  thoughtEnded: boolean;
}

export class AnswerStream {
  private thought: string;
  private messageOpen: boolean;

  constructor(
    private readonly ledger: TaskLedger,
    private readonly taskId: string,
    private readonly layout: AnswerLayout,
    resumed: Resumed,
  ) {
    this.thought = resumed.thought;
    this.messageOpen = !layout.thinks || resumed.thoughtEnded;
  }

  reasoning(delta: string): void {
    // One thought per answer: thinking after the answer began has no item left to go in.
    if (!this.layout.thinks || this.messageOpen || delta === '') return;
    this.thought += delta;
    this.ledger.appendEvents(this.taskId, [
      { type: 'response.reasoning_text.delta', fields: { item_id: this.layout.reasoningId, output_index: 0, content_index: 0, delta } },
    ]);
  }

  text(delta: string): void {
    if (delta === '') return;
    if (!this.layout.thinks) return this.ledger.appendDelta(this.taskId, delta);
    const item_id = this.layout.messageId;
    this.ledger.appendEvents(this.taskId, [
      ...withFields(this.endThought()),
      { type: 'response.output_text.delta', fields: { item_id, output_index: 1, content_index: 0, delta } },
    ]);
  }

  /** The events that finish the output: the thought (if still open), the message, the calls. */
  doneEvents(text: string, calls: readonly FunctionCallItem[]): EventSpec[] {
    const { withMessage, messageId } = this.layout;
    const first = this.layout.thinks ? 1 : 0;
    return [...this.endThought(), ...(withMessage ? textDoneEvents(messageId, text, first) : []), ...callEvents(calls, first + (withMessage ? 1 : 0))];
  }

  /** The reasoning item as the answer keeps it (null when the model did not think in this request). */
  item(status: ReasoningItem['status']): ReasoningItem | null {
    return this.layout.thinks ? reasoningItem(this.layout.reasoningId, this.thought, status) : null;
  }

  /** Closes the thought and opens the message, once. */
  private endThought(): EventSpec[] {
    if (this.messageOpen) return [];
    this.messageOpen = true;
    const { reasoningId, messageId, withMessage } = this.layout;
    return [...reasoningDoneEvents(reasoningId, this.thought), ...(withMessage ? messageOpenEvents(messageId, 1) : [])];
  }
}

function withFields(specs: readonly EventSpec[]): Array<{ type: EventSpec['type']; fields: Record<string, unknown> }> {
  return specs.map((spec) => ({ type: spec.type, fields: spec.fields ?? {} }));
}
