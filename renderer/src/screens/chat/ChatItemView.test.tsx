import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, test } from 'vitest';
import { ChatItemView, SHOWN_CHARS } from './ChatItemView';

afterEach(cleanup);

const message = (role: string, text: string) => ({ id: `msg_${role}`, type: 'message', role, status: 'completed', content: [{ type: 'output_text', text }] });

function renderItem(role: string, text: string) {
  return render(
    <ul>
      <ChatItemView item={message(role, text)} onRetryCutOff={null} onContinueFrom={() => undefined} busy={false} />
    </ul>,
  );
}

describe('ChatItemView', () => {
  test('a long message shows its beginning and a Show all that shows the rest', () => {
    const text = `${'word '.repeat(SHOWN_CHARS / 5)}THE-END`;
    renderItem('assistant', text);
    const shown = screen.getByTestId('chat-message-text').textContent ?? '';
    expect(shown).not.toContain('THE-END');
    expect(screen.getByTestId('chat-message-shortened').textContent).toMatch(/Only the beginning.*Show all \(20,007 characters\)/);
    fireEvent.click(screen.getByTestId('chat-show-all'));
    expect(screen.getByTestId('chat-message-text').textContent).toContain('THE-END');
    expect(screen.queryByTestId('chat-show-all')).toBeNull();
  });

  test('a user message is shortened too, and a short one is shown whole', () => {
    renderItem('user', `${'x'.repeat(SHOWN_CHARS + 10)}TAIL`);
    expect(screen.getByTestId('chat-message-text').textContent).not.toContain('TAIL');
    cleanup();
    renderItem('assistant', 'Short and **whole**.');
    expect(screen.getByTestId('chat-message-text').textContent).toBe('Short and whole.');
    expect(screen.queryByTestId('chat-show-all')).toBeNull();
  });
});
