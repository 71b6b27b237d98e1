// Where the desktop's log goes: stderr (a terminal during `npm run desktop`) and a file in the OS's
// log folder (app.getPath('logs')), because a packaged app has no terminal and a user reporting a
// problem needs something to attach. The logger redacts secrets before a line gets here. The file
// is kept small: past `maxBytes` it becomes `<name>.1` (one old file kept) and a new one starts.
import { appendFileSync, mkdirSync, renameSync, statSync } from 'node:fs';
import { dirname } from 'node:path';

export function rotatingFileSink(path: string, maxBytes = 5 * 1024 * 1024): (line: string) => void {
  mkdirSync(dirname(path), { recursive: true });
  let size = sizeOf(path);
  return (line: string) => {
    const text = `${line}\n`;
    const bytes = Buffer.byteLength(text);
    try {
      if (size + bytes > maxBytes && size > 0) {
        renameSync(path, `${path}.1`);
        size = 0;
      }
      appendFileSync(path, text, { mode: 0o600 });
      size += bytes;
    } catch {
      // A full or read-only disk must not take the app down because of a log line.
    }
  };
}

function sizeOf(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}
