// What `sanad help` says, and what a command's own --help says (its lines of the same text, so the
// two cannot drift). No imports: `sanad help` and `sanad --version` load nothing of the core.
export const USAGE = `Usage: sanad <command> [options]
  sanad help COMMAND | sanad COMMAND --help   that command alone
  sanad --version                           the version of Sanad and of the Node running it

Commands:
  serve [--port N] [--lan [--lan-port N]] [--secrets-file-if-no-keychain]
                                            run the appliance headless (LMSP service, GUI) on this machine; --lan also
                                            serves paired devices on the network (TLS, model routes only); the last
                                            flag (what \`npm start\` uses) keeps the secrets in a file when there is no keychain
  client-config [--out FILE] [--pair]       the network address and certificate (and a pairing code) for a device
  login-link                                a new one-time GUI login link from the running Sanad (works once, 10 min)
  token create --name NAME --scopes s1,s2   make a client and print its token once
  models add PATH [--id ID]                 register a GGUF model file (never copied)
  models list                               list registered models and their status
  models pull URI [--id ID] [--sha256 HEX]  download a model (hf:OWNER/REPO/FILE.gguf, hf:OWNER/REPO:QUANT,
                                            hf:OWNER/REPO, https://…/FILE.gguf), resumable and verified
  models set ID [--context N] [--gpu-layers auto|N] [--temperature T] [--max-output-tokens N] [--backup include|source]
  models login | logout                     save (from a prompt or stdin) or remove the Hugging Face token
  backup now                                one generation to every enabled repository (exit 3: local ok, an offsite failed)
  backup copy-offsite                       the newest backup to the offsite targets that lack it (exit 3: one failed)
  drill [--deep] [--repo NAME]              verify the backups, never writing to them (exit 0 PASS, 1 FAIL, 2 UNVERIFIED)
  repo add NAME --type s3 --url https://HOST[:PORT]/BUCKET[/PREFIX] --access-key-id ID [--region R] [--cacert FILE]
                                            (the secret key from stdin or a prompt)
  repo add NAME --type rest --url http[s]://HOST:PORT/[PATH] [--user U] [--password-stdin]
  repo add NAME --type rclone --remote REMOTE:PATH [--rclone-config FILE]
  repo add NAME --type folder --path DIR    an external disk, or another folder on this computer
  repo list | repo remove NAME              backup targets (remove never deletes the data at the remote)
  recovery-kit [--out FILE] [--confirm]     write what a new machine needs to restore; record it is stored off this machine
  passphrase rotate                         a new backup passphrase for every repository (exit 1: not rotated, nothing revoked)
  restore --list [--repo NAME]              restorable generations, newest data first
  restore --target DIR [--generation E] [--repo NAME] [--models-in-place] [--keep-clients] [--passphrase-stdin]
                                            restore into an empty or absent DIR and verify it (exit 1: failed or refused)
  restore --generation E --response ID [--response ID …] [--undelete] [--repo NAME]
                                            bring those responses (task and events) back into the live data, never overwriting
  generations show E [--repo NAME] [--search TEXT] [--after ID] [--limit N]
                                            what generation E holds and its responses, without restoring
  generations diff E [E2] [--repo NAME]     what changed from E to E2 (default: the live data)
  doctor                                    check this machine and data dir, one line each with the fix (exit 1: something failed)
  doctor --bundle FILE [--log FILE …]       save diagnostics to hand over: the report, versions, settings, log lines; no secrets
  secrets move-to-keychain                  move the secrets from the secrets file into the OS keychain, verified

Options for every command:
  --data-dir DIR   data folder (default: $SANAD_DATA_DIR, else the OS app-data folder)
  --json           machine-readable output on stdout
  --log-format F   json or text log lines on stderr (default: text on a terminal, else json)
  --secrets-file F opt-in 0600 secrets file for headless servers without a keychain
                   (default: $SANAD_SECRETS_FILE, else the OS keychain)
Scopes: models:read, responses:write, tasks:read, tasks:write, admin`;

export const COMMANDS = [
  'serve',
  'login-link',
  'client-config',
  'token',
  'models',
  'backup',
  'drill',
  'repo',
  'recovery-kit',
  'passphrase',
  'restore',
  'generations',
  'doctor',
  'secrets',
  'help',
  'version',
] as const;
export type Command = (typeof COMMANDS)[number];
export const isCommand = (word: string): word is Command => COMMANDS.some((c) => c === word);

const GLOBALS = USAGE.slice(USAGE.indexOf('Options for every command:'));

/** One command's lines of the usage (with their continuation lines), then the global options. */
export function commandUsage(command: Command): string {
  const lines = USAGE.split('\n');
  const out: string[] = [];
  let inCommand = false;
  for (const line of lines.slice(lines.indexOf('Commands:') + 1)) {
    if (line === '') break;
    // A command's line starts two spaces in; its continuations are indented further.
    const starts = /^ {2}\S/.test(line);
    if (starts) inCommand = line.slice(2).split(' ')[0] === command;
    if (inCommand) out.push(line);
  }
  return `Usage: sanad ${command} [options]\n\n${out.join('\n')}\n\n${GLOBALS}`;
}

/** The command a typo most likely meant (at most two edits away), for the error it gets. */
export function nearest(word: string, words: readonly string[]): string | null {
  const distance = (a: string, b: string): number => {
    let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
    for (let i = 1; i <= a.length; i++) {
      const cur = [i];
      for (let j = 1; j <= b.length; j++) cur.push(Math.min((prev[j] ?? 0) + 1, (cur[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1)));
      prev = cur;
    }
    return prev[b.length] ?? Infinity;
  };
  const best = words.map((w) => ({ w, d: distance(word, w) })).sort((x, y) => x.d - y.d)[0];
  return best && best.d <= 2 ? best.w : null;
}
