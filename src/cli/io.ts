// Output for the CLI: results on stdout (JSON with --json, else text), notes on stderr.
export interface Io {
  json: boolean;
  out(text: string): void;
  note(text: string): void;
  result(value: unknown, human: () => string): void;
}

export function createIo(json: boolean, stdout = process.stdout, stderr = process.stderr): Io {
  return {
    json,
    out: (text) => void stdout.write(text.endsWith('\n') ? text : text + '\n'),
    note: (text) => void stderr.write(text.endsWith('\n') ? text : text + '\n'),
    result(value, human) {
      if (json) stdout.write(JSON.stringify(value) + '\n');
      else this.out(human());
    },
  };
}
