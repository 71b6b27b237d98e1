// Reads a secret from stdin (for --secret-stdin / --password-stdin, or a prompt on a terminal
// without echo). Secrets never come from argv, where other users of the machine can see them.
import { createInterface } from 'node:readline';

export async function readSecretFromStdin(prompt: string): Promise<string> {
  const input = process.stdin;
  if (input.isTTY) {
    process.stderr.write(prompt);
    input.setRawMode(true);
    return new Promise((resolve) => {
      let value = '';
      const onData = (chunk: Buffer): void => {
        for (const ch of chunk.toString('utf8')) {
          if (ch === '\r' || ch === '\n' || ch === '\u0004') {
            input.setRawMode(false);
            input.off('data', onData);
            input.pause();
            process.stderr.write('\n');
            resolve(value);
            return;
          }
          if (ch === '\u0003') process.exit(130);
          value = ch === '\u007f' ? value.slice(0, -1) : value + ch;
        }
      };
      input.on('data', onData);
    });
  }
  const rl = createInterface({ input });
  for await (const line of rl) {
    rl.close();
    return line;
  }
  return '';
}
