// `sanad login-link`: a fresh one-time GUI login link from the Sanad running on this data dir, for
// a browser whose session ended (sign-out, 12 idle hours, a restart) or another browser profile.
// It works once and for 10 minutes; opening it signs that browser tab in.
import { CliError } from '../cli-error.js';
import type { Io } from '../io.js';
import { errorMessage, serviceHoldsDataDir, withRunningService } from '../running-service.js';

export async function loginLinkCommand(args: string[], dataDir: string, io: Io): Promise<number> {
  if (args.length > 0) throw new CliError(`sanad login-link takes no arguments (got "${args.join(' ')}").`, 2);
  if (!serviceHoldsDataDir(dataDir))
    throw new CliError(`No Sanad is running on ${dataDir}: start it with \`sanad serve\` (it prints a login link), or name its folder with --data-dir.`);
  const answer = await withRunningService(dataDir, 'sanad login-link', (call) => call('POST', '/admin/login-link'));
  const body = answer.body;
  if (answer.status !== 200 || typeof body !== 'object' || body === null || !('login_url' in body) || typeof body.login_url !== 'string') {
    throw new CliError(`The running Sanad did not give a login link: ${errorMessage(answer.body, `it answered ${answer.status}`)}`);
  }
  const url = body.login_url;
  io.result({ login_url: url, expires_in_seconds: 600 }, () => `Open this link in your browser (it works once, for 10 minutes):\n${url}`);
  return 0;
}
