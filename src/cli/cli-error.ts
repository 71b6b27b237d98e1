// An error meant for the person at the terminal: one sentence saying what happened and what to do.
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

export const usageError = (message: string): CliError => new CliError(`${message} Run \`sanad help\` for usage.`, 2);
