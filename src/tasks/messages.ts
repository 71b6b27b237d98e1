// Turns a stored Responses-API request into the chat the engine runs.
import type { ChatMessage } from '../engine/engine.js';
import type { ResponseRequest } from './types.js';

export function toChatMessages(req: ResponseRequest): ChatMessage[] {
  const messages: ChatMessage[] = [];
  if (req.instructions) messages.push({ role: 'system', content: req.instructions });
  if (typeof req.input === 'string') {
    messages.push({ role: 'user', content: req.input });
    return messages;
  }
  for (const m of req.input) {
    // The Responses API's `developer` role is a system message for a local chat template.
    messages.push({ role: m.role === 'developer' ? 'system' : m.role, content: m.content });
  }
  return messages;
}
