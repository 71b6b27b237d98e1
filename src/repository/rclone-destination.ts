// rclone destinations must name a configured remote ("backup:restic"). Inline backends (":s3:…"),
// connection-string parameters ("remote,opt=x:…"), option-like names and control characters are
// refused before rclone ever runs; spaces and Arabic in the path are fine. Callers still pass the
// destination after `--` so nothing in it can be read as a flag.

export class RcloneDestinationError extends Error {
  constructor(destination: string, why: string) {
    super(`The rclone destination "${printable(destination)}" is refused: ${why}.`);
    this.name = 'RcloneDestinationError';
  }
}

function printable(s: string): string {
  // eslint-disable-next-line no-control-regex -- the point is to show control characters safely
  return s.replace(/[\u0000-\u001f\u007f]/g, '?');
}

export interface RcloneDestination {
  remote: string;
  path: string;
}

// rclone's remote names: letters, digits, '_', '-', '.', '+', '@' and spaces, not starting with '-' or a space.
const REMOTE = /^[\p{L}\p{N}_+@.][\p{L}\p{N}_+@. -]*$/u;

export function parseRcloneDestination(destination: string): RcloneDestination {
  // eslint-disable-next-line no-control-regex -- refusing control characters is the rule here
  if (/[\u0000-\u001f\u007f]/.test(destination)) throw new RcloneDestinationError(destination, 'it contains control characters');
  if (destination.startsWith('-')) throw new RcloneDestinationError(destination, 'it looks like a command-line option');
  if (destination.startsWith(':'))
    throw new RcloneDestinationError(destination, 'inline backends (":backend:") are not allowed; configure a remote with `rclone config` and name it');
  const colon = destination.indexOf(':');
  if (colon <= 0) throw new RcloneDestinationError(destination, 'it must name a configured remote, like "backup:sanad"');
  const remote = destination.slice(0, colon);
  const path = destination.slice(colon + 1);
  if (remote.includes(',')) throw new RcloneDestinationError(destination, 'connection-string parameters ("remote,option=value:") are not allowed');
  if (!REMOTE.test(remote) || remote.endsWith(' ')) throw new RcloneDestinationError(destination, `"${remote}" is not a valid rclone remote name`);
  if (path.startsWith('-')) throw new RcloneDestinationError(destination, 'its path looks like a command-line option');
  return { remote, path };
}

/** The remote must be one `rclone listremotes` printed (each line "name:"). */
export function assertConfiguredRemote(dest: RcloneDestination, listRemotesOutput: string): void {
  const configured = listRemotesOutput
    .split('\n')
    .map((l) => l.trim().replace(/:$/, ''))
    .filter(Boolean);
  if (!configured.includes(dest.remote)) {
    throw new RcloneDestinationError(`${dest.remote}:${dest.path}`, `no rclone remote named "${dest.remote}" is configured (see \`rclone listremotes\`)`);
  }
}
