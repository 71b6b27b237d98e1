// Line splitting and bounded tails for child output. A chatty or hostile child must not grow
// Sanad's memory without bound, so only the last `max` lines are kept, each cut to `maxLineChars`;
// the full line still reaches the caller's callback (a long JSON line must parse whole).
import { StringDecoder } from 'node:string_decoder';

export class RingBuffer {
  private readonly items: string[] = [];
  constructor(
    private readonly max: number,
    private readonly maxLineChars = 4096,
  ) {}

  push(line: string): void {
    this.items.push(line.length > this.maxLineChars ? line.slice(0, this.maxLineChars) + '…' : line);
    if (this.items.length > this.max) this.items.shift();
  }

  lines(): string[] {
    return [...this.items];
  }
}

/** Feeds UTF-8 chunks in, calls `onLine` once per complete line (without `\n` or a trailing `\r`). */
export class LineSplitter {
  private readonly decoder = new StringDecoder('utf8');
  private pending = '';
  constructor(private readonly onLine: (line: string) => void) {}

  write(chunk: Buffer): void {
    this.pending += this.decoder.write(chunk);
    let at = this.pending.indexOf('\n');
    while (at !== -1) {
      this.emit(this.pending.slice(0, at));
      this.pending = this.pending.slice(at + 1);
      at = this.pending.indexOf('\n');
    }
  }

  end(): void {
    this.pending += this.decoder.end();
    if (this.pending.length > 0) this.emit(this.pending);
    this.pending = '';
  }

  private emit(line: string): void {
    this.onLine(line.endsWith('\r') ? line.slice(0, -1) : line);
  }
}
