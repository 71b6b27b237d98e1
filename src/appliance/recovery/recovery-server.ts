// What the desktop app opens instead of failing when the store is damaged: a small loopback
// server (127.0.0.1, a port the OS picks, Host and Origin checked, a one-time login code for the
// window) with one screen: what is damaged, when the last good backup was made, "restore from the
// local backup into a new folder", "show the damaged folder", and then "open the restored data".
// It never writes to the damaged data dir; the restore only reads it (restore-source.ts).
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import { dirname, join } from 'node:path';
import { silentLogger, type Logger } from '../../log/logger.js';
import { repositorySourceFor } from '../../restore/restore-source.js';
import { restoreGeneration } from '../../restore/restore-generation.js';
import { openSecretStore } from '../../secrets/open-secret-store.js';
import { recordedSecretsFile } from '../../secrets/secrets-location.js';
import { RESTIC_PASSPHRASE } from '../../secrets/secret-store.js';
import type { StoreDamagedError } from '../../store/store-check.js';
import { sessionToken } from '../../service/auth.js';
import { LoginCodes } from '../../service/login-codes.js';
import { GUI_CSP } from '../../service/routes/gui.js';
import { RECOVERY_CSS, recoveryContent, recoveryShell, signInContent, type RecoveryState } from './recovery-page.js';
import { RECOVERY_SCRIPT } from './recovery-script.js';
import { languageOf } from './recovery-text.js';

export interface RecoveryOptions {
  dataDir: string;
  damage: StoreDamagedError;
  secretsFile?: string;
  /** The desktop's "show in folder" for the damaged store. */
  showFolder?: (path: string) => void;
  /** The desktop restarts on the restored folder. */
  openRestored?: (dataDir: string) => void;
  logger?: Logger;
}

export interface RecoveryServer {
  url: string;
  origin: string;
  /** A fresh one-time login URL for the window. */
  loginUrl(): string;
  close(): Promise<void>;
}

export async function startRecoveryServer(options: RecoveryOptions): Promise<RecoveryServer> {
  const logger = options.logger ?? silentLogger;
  const login = new LoginCodes();
  const app = Fastify({ logger: false, bodyLimit: 16 * 1024 });
  let state: RecoveryState = { phase: 'idle' };
  let port = 0;
  const allowed = (): string[] => ['127.0.0.1', 'localhost'].map((h) => `${h}:${port}`);
  const suggested = join(dirname(options.dataDir), `${options.dataDir.split(/[\\/]/).pop() ?? 'sanad'}-restored`);
  // The browser asks for an icon on its own: a plain 404, not a 401 in the console.
  const OPEN = new Set(['/', '/login', '/recovery.css', '/recovery.js', '/favicon.ico']);

  app.addHook('onRequest', async (req, reply) => {
    const origin = req.headers.origin;
    if (!allowed().includes(req.headers.host ?? '') || (origin !== undefined && !allowed().some((a) => origin === `http://${a}`))) {
      return reply.code(403).type('text/plain').send('This request names another host or comes from another page.');
    }
    void reply
      .header('x-content-type-options', 'nosniff')
      .header('x-frame-options', 'DENY')
      .header('referrer-policy', 'no-referrer')
      .header('cache-control', 'no-store')
      .header('content-security-policy', GUI_CSP);
    if (OPEN.has(req.url.split('?')[0] ?? '')) return undefined;
    // The window's session, as a header (recovery-script.ts): never a cookie, which the browser
    // would send to every other port of 127.0.0.1 too.
    const session = sessionToken(req);
    if (session === null || !login.isSession(session)) return reply.code(401).send(signInContent(languageOf(req.headers['accept-language'])));
    return undefined;
  });

  // The shell holds no data, so it needs no session; its script signs in with the window's code.
  const shell = async (req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> =>
    reply.type('text/html; charset=utf-8').send(recoveryShell(languageOf(req.headers['accept-language'])));
  app.get('/', shell);
  app.get('/login', shell);
  app.post<{ Body: { code?: unknown } | undefined }>('/login', async (req, reply) => {
    const code = typeof req.body?.code === 'string' ? req.body.code : null;
    const session = code ? login.redeem(code) : null;
    if (!session) return reply.code(403).send({ error: 'This login link was already used or is wrong.' });
    return { token: session.token };
  });
  app.get('/recovery.css', async (_req, reply) => reply.type('text/css; charset=utf-8').send(RECOVERY_CSS));
  app.get('/recovery.js', async (_req, reply) => reply.type('text/javascript; charset=utf-8').send(RECOVERY_SCRIPT));
  app.get('/recovery/page', async (req) =>
    recoveryContent({
      lang: languageOf(req.headers['accept-language']),
      dataDir: options.dataDir,
      storeFile: options.damage.path,
      reason: options.damage.reason,
      suggestedTarget: suggested,
      state,
      canShowFolder: options.showFolder !== undefined,
    }),
  );

  app.post<{ Body: { target?: string } }>('/recovery/restore', async (req, reply) => {
    const target = (req.body.target ?? '').trim();
    if (state.phase === 'idle' || (state.phase === 'done' && !state.result.ok)) {
      if (target !== '') {
        state = { phase: 'restoring', target };
        void restoreLocal(options, target, logger).then(
          (result) => (state = { phase: 'done', result }),
          (err: unknown) => {
            // Before the restore could even begin (no keychain, no restic): said on the page.
            const error = err instanceof Error ? err.message : String(err);
            state = {
              phase: 'done',
              result: { ok: false, generation: null, snapshot_id: null, snapshot_time: null, repo: 'local', target, checks: [], next_step: null, error },
            };
          },
        );
      }
    }
    return reply.code(204).send();
  });
  app.post('/recovery/show-folder', async (_req, reply) => {
    options.showFolder?.(options.damage.path);
    return reply.code(204).send();
  });
  app.post('/recovery/open', async (_req, reply) => {
    if (state.phase === 'done' && state.result.ok) {
      const target = state.result.target;
      state = { phase: 'opening', target };
      // After this answer is sent: the host closes this server and starts Sanad on the target.
      setImmediate(() => options.openRestored?.(target));
    }
    return reply.code(204).send();
  });

  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  port = typeof address === 'object' && address ? address.port : 0;
  const url = `http://127.0.0.1:${port}`;
  return { url, origin: url, loginUrl: () => `${url}/login?code=${login.issue()}`, close: () => app.close() };
}

/** The newest generation of the local repository into `target`, the damaged data dir only read. */
async function restoreLocal(options: RecoveryOptions, target: string, logger: Logger): ReturnType<typeof restoreGeneration> {
  const live = await openSecretStore(options.dataDir, options.secretsFile);
  const source = await repositorySourceFor({
    db: null,
    dataDir: options.dataDir,
    repoName: 'local',
    vault: null,
    secretsDescription: live.description,
    knownPassphrase: await live.get(RESTIC_PASSPHRASE),
  });
  return restoreGeneration({
    source,
    liveDataDir: options.dataDir,
    target,
    logger,
    secretsFor: (dir) => openSecretStore(dir, options.secretsFile ?? recordedSecretsFile(options.dataDir)),
  });
}
