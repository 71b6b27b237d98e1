// The one owner of the network listener for paired devices: off by default; on with the Settings
// switch (`lan_enabled`, persisted) or `sanad serve --lan` (this run). TLS terminates here with the
// device certificates (certificates.ts); the decrypted connections go to a Fastify app that has
// only the LMSP routes (service/server.ts buildLanServer). While it listens, `_lmsp._tcp` is
// announced (advert.ts); its names are checked every few minutes, and a new address re-makes the
// listener's certificate under the same authority, so a device's pin holds.
import type { FastifyInstance } from 'fastify';
import type { Socket } from 'node:net';
import { hostname } from 'node:os';
import { createServer, type Server, type TLSSocket } from 'node:tls';
import type { LanStatus } from '../../contract/lan.js';
import type { Logger } from '../../log/logger.js';
import type { LanControl, ServiceContext } from '../../service/context.js';
import { bracketed, lanListener } from '../../service/listener.js';
import { capPerAddress, REQUEST_WAIT_MS } from '../../service/connection-guard.js';
import { buildLanServer, LAN_CONNECTIONS_PER_ADDRESS } from '../../service/server.js';
import { startAdvert, type Advert } from './advert.js';
import { parseDeviceCertificates } from '../../secrets/device-certificate.js';
import { CERTIFICATES_SECRET, ensureDeviceCertificates, type LoadedCertificates } from './certificates.js';
import { lanAddresses, lanNames } from './names.js';
import { LanUnavailableError } from './errors.js';

export { LanUnavailableError } from './errors.js';

const RECHECK_NAMES_MS = 5 * 60_000;

export interface LanListenerOptions {
  /** `sanad serve --lan`: on for this run whatever the setting says (until the switch is moved). */
  forced?: boolean;
  /** `--lan-port N` for this run. */
  port?: number;
  /** Announce over mDNS (default true). */
  advertise?: boolean;
}

interface Running {
  tls: Server;
  app: FastifyInstance;
  sockets: Set<Socket>;
  port: number;
  advert: Advert | null;
  timer: NodeJS.Timeout;
}

function explainListenError(err: unknown, port: number): LanUnavailableError {
  const code = err instanceof Error && 'code' in err ? err.code : undefined;
  if (code === 'EADDRINUSE')
    return new LanUnavailableError(
      `Port ${port} for devices on the network is already taken by another program; choose another port (\`--lan-port N\`, or the port in Settings).`,
    );
  if (code === 'EACCES')
    return new LanUnavailableError(`Sanad may not open port ${port} for devices on the network (ports below 1024 need root); choose a port from 1024 up.`);
  return new LanUnavailableError(
    `The listener for devices on the network could not start on port ${port}: ${err instanceof Error ? err.message : String(err)}.`,
  );
}

export class LanListener implements LanControl {
  private running: Running | null = null;
  private certs: LoadedCertificates | null = null;
  private lastError: string | null = null;
  private forced: boolean | undefined;
  private portOverride: number | undefined;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly ctx: () => ServiceContext,
    private readonly logger: Logger,
    private readonly options: LanListenerOptions = {},
  ) {
    this.forced = options.forced;
    this.portOverride = options.port;
  }

  private enabled(): boolean {
    return this.forced ?? this.ctx().settings().lan_enabled;
  }

  private port(): number {
    return this.portOverride ?? this.ctx().settings().lan_port;
  }

  /** One change at a time: a switch flipped twice quickly ends where it was last put. */
  private serial<T>(work: () => Promise<T>): Promise<T> {
    const next = this.queue.then(work, work);
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** At start: what the settings and `--lan` ask for. A saved switch whose port is taken is
   *  reported (status, log) but does not stop the appliance; `--lan` asked for it, and throws. */
  start(): Promise<void> {
    return this.serial(async () => {
      try {
        await this.reconcile();
      } catch (err) {
        if (this.forced === true) throw err;
        this.logger.warn('the listener for devices on the network did not start', { error: this.lastError });
      }
    });
  }

  apply(): Promise<void> {
    return this.serial(async () => {
      // The user moved the switch (or the port): it wins over `--lan [--lan-port]` from here on.
      this.forced = undefined;
      this.portOverride = undefined;
      await this.reconcile();
    });
  }

  private async reconcile(): Promise<void> {
    const want = this.enabled();
    const port = this.port();
    if (this.running && (!want || this.running.port !== port)) await this.stopRunning();
    if (want && !this.running) {
      try {
        await this.listen(port);
        this.lastError = null;
      } catch (err) {
        this.lastError = err instanceof Error ? err.message : String(err);
        throw err;
      }
    }
    if (!want) this.lastError = null;
  }

  private async loadCertificates(options: { newAuthority?: boolean } = {}): Promise<LoadedCertificates> {
    const ctx = this.ctx();
    this.certs = await ensureDeviceCertificates(ctx.secrets.vault, hostname(), lanNames(), new Date(ctx.clock.now()), options);
    if (this.certs.changed) this.logger.info('device certificate made', { names: this.certs.names, fingerprint: this.certs.fingerprint });
    return this.certs;
  }

  private secureOptions(certs: LoadedCertificates): { key: string; cert: string } {
    // The chain: the listener's certificate, then the authority a device trusts.
    return { key: certs.leaf.keyPem, cert: certs.leaf.certPem + certs.authority.certPem };
  }

  private async listen(port: number): Promise<void> {
    const ctx = this.ctx();
    const certs = await this.loadCertificates();
    const app = buildLanServer(
      ctx,
      lanListener(
        () => this.certs?.names ?? [],
        () => this.running?.port ?? port,
      ),
    );
    await app.ready();
    const sockets = new Set<Socket>();
    // noDelay: a small answer leaves at once. Without it Nagle's algorithm meets the client's delayed
    // ACK and a fresh connection's first answer waited ~40 ms (bench/lan.ts: 51 ms, now 5.3 ms).
    // handshakeTimeout: a connection that never starts TLS (or starts it slowly) holds its slot a
    // few seconds, not the default two minutes (service/connection-guard.ts says why).
    const tls = createServer(
      { ...this.secureOptions(certs), minVersion: 'TLSv1.2', ALPNProtocols: ['http/1.1'], noDelay: true, handshakeTimeout: REQUEST_WAIT_MS },
      (socket: TLSSocket) => {
        // Decrypted, the connection is an ordinary HTTP one for the app's server.
        app.server.emit('connection', socket);
      },
    );
    tls.maxConnections = app.server.maxConnections;
    // Counted on the raw sockets, before TLS: one host cannot take every slot with idle sockets.
    capPerAddress((listener) => tls.on('connection', listener), LAN_CONNECTIONS_PER_ADDRESS);
    tls.on('connection', (raw: Socket) => {
      sockets.add(raw);
      raw.once('close', () => sockets.delete(raw));
    });
    // Plain HTTP, a wrong certificate pinned on the other side, a port scan: the handshake fails
    // and the connection ends; nothing to answer.
    // With a listener here Node leaves the socket open (a handshake timeout included): close it.
    tls.on('tlsClientError', (err, socket) => {
      socket.destroy();
      this.logger.debug('a connection to the network listener failed its TLS handshake', { error: err.message });
    });
    try {
      await new Promise<void>((resolve, reject) => {
        tls.once('error', reject);
        tls.listen(port, '0.0.0.0', () => {
          tls.off('error', reject);
          resolve();
        });
      });
    } catch (err) {
      await app.close();
      throw explainListenError(err, port);
    }
    const address = tls.address();
    const bound = typeof address === 'object' && address !== null ? address.port : port;
    const timer = setInterval(() => void this.serial(() => this.recheckNames()), RECHECK_NAMES_MS);
    timer.unref();
    this.running = { tls, app, sockets, port: bound, advert: null, timer };
    this.running.advert = this.advertise(bound, certs);
    this.logger.info('serving devices on the network', { url: this.urls()[0] ?? null, port: bound });
  }

  private advertise(port: number, certs: LoadedCertificates): Advert | null {
    if (this.options.advertise === false) return null;
    const addresses = lanAddresses();
    if (addresses.length === 0) return null;
    return startAdvert({ name: `Sanad on ${hostname()}`, port, fingerprint: certs.fingerprint, addresses, logger: this.logger });
  }

  /** A new network address (DHCP, another Wi-Fi): the listener's certificate must name it. */
  private async recheckNames(): Promise<void> {
    const running = this.running;
    if (!running) return;
    const before = this.certs?.fingerprint;
    const certs = await this.loadCertificates();
    if (!certs.changed) return;
    running.tls.setSecureContext(this.secureOptions(certs));
    await running.advert?.stop();
    running.advert = this.advertise(running.port, certs);
    if (certs.fingerprint !== before) this.closeConnections(running);
    this.ctx().adminEvents.publish('lan.changed', { change: 'names' });
  }

  private closeConnections(running: Running): void {
    for (const socket of running.sockets) socket.destroy();
  }

  private async stopRunning(): Promise<void> {
    const running = this.running;
    if (!running) return;
    this.running = null;
    clearInterval(running.timer);
    await running.advert?.stop();
    const closed = new Promise<void>((resolve) => running.tls.close(() => resolve()));
    // Off means off: open streams and kept-alive connections end now, not when they idle out.
    this.closeConnections(running);
    await closed;
    await running.app.close();
    this.logger.info('stopped serving devices on the network', { port: running.port });
  }

  stop(): Promise<void> {
    return this.serial(() => this.stopRunning());
  }

  newCertificate(): Promise<void> {
    return this.serial(async () => {
      const certs = await this.loadCertificates({ newAuthority: true });
      const running = this.running;
      if (!running) return;
      running.tls.setSecureContext(this.secureOptions(certs));
      // Every device trusted the old authority: their connections end, and they must confirm again.
      this.closeConnections(running);
      await running.advert?.stop();
      running.advert = this.advertise(running.port, certs);
    });
  }

  /** Never makes one: an unauthenticated GET must not write to the vault. */
  async certificatePem(): Promise<string | null> {
    return this.certs?.authority.certPem ?? parseDeviceCertificates(this.ctx().secrets.vault.get(CERTIFICATES_SECRET))?.authority.certPem ?? null;
  }

  fingerprint(): string | null {
    return this.certs?.fingerprint ?? null;
  }

  private urls(): string[] {
    const running = this.running;
    if (!running) return [];
    const names = this.certs?.names ?? [];
    // The network addresses first (what another device can reach), then the names.
    const ordered = [...names.filter((n) => /^\d/.test(n) && n !== '127.0.0.1'), ...names.filter((n) => !/^\d/.test(n) && n !== 'localhost')];
    return ordered.map((n) => `https://${bracketed(n)}:${running.port}`);
  }

  status(): LanStatus {
    const certs = this.certs;
    const urls = this.urls();
    return {
      enabled: this.enabled(),
      running: this.running !== null,
      port: this.running?.port ?? this.port(),
      url: urls[0] ?? null,
      urls,
      tls_fingerprint_sha256: certs?.fingerprint ?? null,
      certificate_pem: certs?.authority.certPem ?? null,
      names: certs?.names ?? [],
      advertising: this.running?.advert != null,
      certificate_expires_at: certs?.leafExpiresAt ?? null,
      error: this.lastError,
    };
  }
}
