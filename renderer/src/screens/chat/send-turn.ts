// Sending one turn of a conversation: a background response (POST /v1/responses, 202) with the
// conversation's settings and `conversation`, so the server gives the model every earlier item and
// appends this turn when it completes. The task to watch is remembered (pending-turn.ts) before the
// caller hears of it, so a reload at any moment finds it.
import { api } from '../../api/http';
import { browserNow } from '../../clock';
import { CreatedResponse } from '../../../../src/contract/tasks';
import type { ChatSettings } from './chat-settings';
import { writePending, type PendingTurn } from './pending-turn';

export async function sendTurn(conversationId: string, text: string, settings: ChatSettings): Promise<PendingTurn> {
  const sentAt = browserNow();
  const created = await api('POST', '/v1/responses', CreatedResponse, {
    model: settings.model,
    conversation: conversationId,
    input: [{ type: 'message', role: 'user', content: text }],
    ...(settings.instructions.trim() === '' ? {} : { instructions: settings.instructions }),
    ...(settings.temperature === null ? {} : { temperature: settings.temperature }),
    ...(settings.maxOutputTokens === null ? {} : { max_output_tokens: settings.maxOutputTokens }),
    ...(settings.reasoningEffort === null ? {} : { reasoning: { effort: settings.reasoningEffort } }),
    background: true,
  });
  const turn: PendingTurn = { conversationId, taskId: created.task_id, responseId: created.id, text, sentAt };
  writePending(turn);
  return turn;
}
