// A real S3-compatible offsite on loopback: s3rver in this process, over HTTPS with a fresh
// self-signed certificate. restic needs TLS here: over plain HTTP it signs uploads as aws-chunked
// streams, which s3rver stores raw, and the repository breaks. restic trusts the certificate
// through `--cacert` (the repository's `cacert` option). s3rver checks only that the access key
// id exists (S3RVER); it does not verify SigV4 signatures, so any secret key is accepted.
// Stop and start again: same port, same folder, same bucket content (an offsite that comes back).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import S3rver from 's3rver';
import { tempDir } from '../../harness/data-dir.js';

export const S3_ACCESS_KEY_ID = 'S3RVER';

/** A self-signed certificate for IP 127.0.0.1, valid one day, in a fresh temp dir. */
export function selfSignedCert(): { keyPath: string; certPath: string } {
  const dir = tempDir('sanad-s3-tls-');
  const keyPath = join(dir, 'key.pem');
  const certPath = join(dir, 'cert.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
      '-days',
      '1',
      '-keyout',
      keyPath,
      '-out',
      certPath,
    ],
    { stdio: 'ignore' },
  );
  return { keyPath, certPath };
}

export class S3Server {
  private server: S3rver | null = null;
  readonly certPath: string;
  readonly keyPath: string;

  constructor(
    readonly dir: string,
    readonly port: number,
    readonly bucket = 'sanad-test',
  ) {
    ({ certPath: this.certPath, keyPath: this.keyPath } = selfSignedCert());
  }

  /** The location for an s3 repository row: https://HOST:PORT/BUCKET/PREFIX. */
  location(prefix: string): string {
    return `https://127.0.0.1:${this.port}/${this.bucket}/${prefix}`;
  }

  async start(): Promise<void> {
    const server = new S3rver({
      address: '127.0.0.1',
      port: this.port,
      key: readFileSync(this.keyPath),
      cert: readFileSync(this.certPath),
      silent: true,
      directory: this.dir,
      // Path-style URLs only: the host is an IP, never BUCKET.host.
      vhostBuckets: false,
      configureBuckets: [{ name: this.bucket }],
    });
    await server.run();
    this.server = server;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (!server) return;
    const closing = server.close();
    // Keep-alive connections would hold close() open; drop them so "stopped" means refused at once.
    server.httpServer?.closeAllConnections();
    await closing;
  }
}
