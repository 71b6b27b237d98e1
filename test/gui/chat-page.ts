// What the chat tests read on the page. A turn is over when its messages are the stored ones and no
// turn is pending any more: the composer offers Send again, not Stop. Waiting for the stored count
// alone races the pending turn's own task query (the stored items can arrive first), and a message
// typed in that moment meets Stop, not Send, exactly as it would for a person.
import type { Page } from 'playwright-core';
import { waitFor } from '../harness/api.js';

export const storedMessages = (page: Page) => page.locator('[data-testid=chat-message]:not([data-pending])');

/** Waits until `count` messages are stored and shown and no turn is pending. */
export async function turnsOver(page: Page, count: number, timeoutMs: number, what: string): Promise<void> {
  await waitFor(
    async () =>
      (await storedMessages(page).count()) === count &&
      (await page.getByTestId('chat-pending').count()) === 0 &&
      (await page.getByTestId('chat-stop').count()) === 0,
    timeoutMs,
    what,
  );
}

export async function send(page: Page, text: string): Promise<void> {
  await page.getByTestId('chat-input').fill(text);
  await page.getByTestId('chat-input').press('Enter');
}
