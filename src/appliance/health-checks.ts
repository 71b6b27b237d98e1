// The core's readiness checks: the store answers, and the registered models are on disk.
import { recoveryKitConfirmedAt } from '../secrets/recovery-kit.js';
import { VAULT_KEY } from '../secrets/secret-store.js';
import type { ServiceContext } from '../service/context.js';
import { diskFullSentence, formatBytes } from '../store/disk.js';
import type { CheckResult, HealthCheck } from '../service/health-check.js';

/** How long the keychain's answer is reused: /health/ready may be polled, the keychain must not be. */
export const KEYCHAIN_CHECK_MS = 60_000;

export function coreHealthChecks(ctx: ServiceContext): HealthCheck[] {
  let keychain: { at: number; result: Promise<CheckResult> } | null = null;
  const askKeychain = async (): Promise<CheckResult> => {
    const { store, master } = ctx.secrets;
    const key = await store.get(VAULT_KEY);
    if (key !== master.vaultKey.toString('base64')) {
      return { ok: false, detail: `the vault key in ${store.description} is missing or was replaced; restore it from the recovery kit` };
    }
    return { ok: true, detail: `master secrets are in ${store.description}` };
  };
  return [
    {
      name: 'keychain',
      run: () => {
        const now = ctx.clock.now();
        if (keychain === null || now - keychain.at >= KEYCHAIN_CHECK_MS || now < keychain.at) keychain = { at: now, result: askKeychain() };
        const asked = keychain;
        // A failed read is not kept: the next request asks again.
        return asked.result.catch((err: unknown) => {
          if (keychain === asked) keychain = null;
          throw err;
        });
      },
    },
    {
      name: 'secrets',
      run: () =>
        ctx.secrets.store.kind === 'file'
          ? {
              ok: false,
              severity: 'warning',
              detail: `the master secrets are in ${ctx.secrets.store.description}, not in the OS keychain; move them with \`sanad secrets move-to-keychain\` when a keychain is available`,
            }
          : { ok: true, detail: 'the master secrets are in the OS keychain' },
    },
    {
      // Only a warning: the desktop works; devices on the network cannot reach it until it is fixed.
      name: 'network_devices',
      run: () => {
        const lan = ctx.lan.status();
        if (!lan.enabled) return { ok: true, detail: 'devices on the network are off' };
        if (!lan.running)
          return {
            ok: false,
            severity: 'warning',
            detail: `devices on the network are switched on but cannot reach Sanad: ${lan.error ?? 'the listener is not running'}`,
          };
        return {
          ok: true,
          detail: `devices on the network use ${lan.url ?? `port ${lan.port}`} (TLS, certificate SHA-256 ${lan.tls_fingerprint_sha256 ?? '?'})`,
        };
      },
    },
    {
      name: 'recovery_kit',
      run: () =>
        recoveryKitConfirmedAt(ctx.db) === null
          ? {
              ok: false,
              severity: 'warning',
              detail: 'the recovery kit has not been confirmed as stored off this machine; export it (sanad recovery-kit) and confirm',
            }
          : { ok: true, detail: 'the recovery kit is confirmed stored off this machine' },
    },
    {
      name: 'disk',
      run: () => {
        const d = ctx.disk.status();
        const free = d.free_bytes === null ? 'unknown space' : `${formatBytes(d.free_bytes)} free`;
        if (d.full) return { ok: false, detail: diskFullSentence(d.path) };
        if (d.low) {
          return {
            ok: false,
            severity: 'warning',
            detail: `${free} on the disk holding ${d.path}; the next backup needs about ${formatBytes(d.needed_bytes)}: free some space`,
          };
        }
        return { ok: true, detail: `${free} on the disk holding ${d.path}` };
      },
    },
    {
      name: 'database',
      run: () => {
        ctx.db.prepare('SELECT 1').get();
        return { ok: true, detail: 'the store answers' };
      },
    },
    {
      name: 'models',
      run: async () => {
        const models = await ctx.models.list();
        const bad = models.filter((m) => m.status !== 'available').map((m) => `${m.id} is ${m.status}`);
        if (models.length === 0) return { ok: false, severity: 'warning', detail: 'no model is registered; run `sanad models add PATH`' };
        return bad.length === 0 ? { ok: true, detail: `${models.length} model(s) available` } : { ok: false, severity: 'warning', detail: bad.join('; ') };
      },
    },
  ];
}
