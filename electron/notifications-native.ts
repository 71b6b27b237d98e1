// Native notifications: shows the Notice objects logic/notify-dedupe.ts decided on. A click opens
// the window. Where the desktop has no notification service, nothing is shown (the tray still is).
import { Notification } from 'electron';
import type { Notice } from './logic/notify-dedupe.js';

export function showNotice(notice: Notice, options: { icon?: string; onClick: () => void }): void {
  if (!Notification.isSupported()) return;
  const n = new Notification({
    title: notice.title,
    body: notice.body,
    urgency: notice.urgency,
    ...(options.icon !== undefined ? { icon: options.icon } : {}),
  });
  n.on('click', options.onClick);
  n.show();
}
