// An error meant for the person at the terminal: one sentence saying what happened and what to do.
import { closest } from '../contract/closest-word.js';
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

/** A subcommand that is not one: names the closest one when the typo is near it, and the choices. */
export function unknownSubcommand(group: string, sub: string, known: readonly string[]): CliError {
  const near = closest(sub, known);
  const choices = known.length === 1 ? `\`sanad ${group} ${known[0] ?? ''}\`` : `${known.slice(0, -1).join(', ')} or ${known.at(-1) ?? ''}`;
  return usageError(`Unknown ${group} command "${sub}"${near !== null ? `; did you mean "${near}"?` : '.'} Use ${choices}.`);
}
