// `sanad client-config [--out FILE] [--pair]`, run on the desktop: what a device on the network
// needs to use this Sanad: the base URL, the certificate to trust (written to FILE, public; it
// holds no key) and its fingerprint to compare with what the device sees; with --pair, a one-time
// pairing code as well. Asks the running service, whose network listener must be on.
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { LanStatus } from '../../contract/lan.js';
import { CliError, usageError } from '../cli-error.js';
import type { Io } from '../io.js';
import { errorMessage, serviceHoldsDataDir, withRunningService } from '../running-service.js';

export const DEFAULT_CERTIFICATE_FILE = 'sanad-certificate.pem';
const DEVICE_SCOPES = ['models:read', 'responses:write', 'tasks:read', 'tasks:write'];

export async function clientConfigCommand(args: string[], dataDir: string, io: Io): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({ args, options: { out: { type: 'string' }, pair: { type: 'boolean' } }, strict: true, allowPositionals: false }));
  } catch (err) {
    throw usageError(`${err instanceof Error ? err.message : String(err)}; use \`sanad client-config [--out FILE] [--pair]\`.`);
  }
  if (!serviceHoldsDataDir(dataDir)) {
    throw new CliError(
      `No Sanad is running on ${dataDir}: start it with \`sanad serve --lan\` (or switch on "Let devices on this network use Sanad" in Settings), then run this again.`,
    );
  }
  const file = resolve(values.out ?? DEFAULT_CERTIFICATE_FILE);
  const { lan, code } = await withRunningService(dataDir, 'sanad client-config', async (call) => {
    const answer = await call('GET', '/admin/lan');
    const parsed = LanStatus.safeParse(answer.body);
    if (answer.status !== 200 || !parsed.success)
      throw new CliError(`The running Sanad did not say how devices reach it: ${errorMessage(answer.body, `it answered ${answer.status}`)}`);
    if (!parsed.data.running) {
      throw new CliError(
        parsed.data.error !== null
          ? `Devices on the network cannot reach this Sanad: ${parsed.data.error}`
          : 'Devices on the network are off: switch on "Let devices on this network use Sanad" in Settings, or restart with `sanad serve --lan`.',
      );
    }
    if (!values.pair) return { lan: parsed.data, code: null };
    const made = await call('POST', '/admin/pairing-codes', { scopes: DEVICE_SCOPES, ttl_s: 600 });
    const body = made.body;
    if (made.status !== 201 || typeof body !== 'object' || body === null || !('code' in body) || typeof body.code !== 'string') {
      throw new CliError(`The running Sanad did not make a pairing code: ${errorMessage(body, `it answered ${made.status}`)}`);
    }
    return { lan: parsed.data, code: body.code };
  });
  if (lan.certificate_pem === null || lan.url === null || lan.tls_fingerprint_sha256 === null) {
    throw new CliError('This machine has no network address yet, so no device can reach it; connect it to the network and try again.');
  }
  try {
    writeFileSync(file, lan.certificate_pem, { mode: 0o644 });
  } catch (err) {
    throw new CliError(`Could not write the certificate to ${file} (${err instanceof Error ? err.message : String(err)}); name another file with --out FILE.`);
  }
  const base = `${lan.url}/v1`;
  const fingerprint = lan.tls_fingerprint_sha256;
  io.result(
    {
      base_url: base,
      urls: lan.urls.map((u) => `${u}/v1`),
      tls_fingerprint_sha256: fingerprint,
      certificate_file: file,
      pairing_code: code,
      pairing_scopes: code === null ? null : DEVICE_SCOPES,
    },
    () =>
      [
        `Base URL:    ${base}${lan.urls.length > 1 ? `  (also ${lan.urls.slice(1).join(', ')})` : ''}`,
        `Certificate: ${file} (copy it to the device; it is public)`,
        `SHA-256:     ${fingerprint}`,
        `             (openssl shows it as ${fingerprint.toUpperCase().replace(/(..)(?!$)/g, '$1:')})`,
        ...(code === null
          ? ['Pairing:     make a code on the Clients screen, or run this again with --pair']
          : [`Pairing code: ${code} (works once, for 10 minutes)`]),
        '',
        'On the device, check the fingerprint first, then pair:',
        `  openssl x509 -in ${DEFAULT_CERTIFICATE_FILE} -noout -fingerprint -sha256`,
        `  curl --cacert ${DEFAULT_CERTIFICATE_FILE} -H 'content-type: application/json' -d '{"code": "${code ?? 'XXXX-XXXX'}", "client_name": "my laptop"}' ${base}/pair`,
      ].join('\n'),
  );
  return 0;
}
