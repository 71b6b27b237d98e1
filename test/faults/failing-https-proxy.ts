// A real HTTPS endpoint in front of s3rver that can be told to answer every request with
// 500 InternalError, as a cloud S3 endpoint does during an outage; otherwise it passes requests
// through unchanged. Same certificate as the s3rver behind it, so restic's --cacert trusts both.
import { request as httpsRequest, createServer, type Server } from 'node:https';
import { readFileSync } from 'node:fs';

export class FailingHttpsProxy {
  failing = false;
  private server: Server | null = null;

  constructor(
    readonly port: number,
    private readonly upstreamPort: number,
    private readonly keyPath: string,
    private readonly certPath: string,
  ) {}

  async start(): Promise<void> {
    const ca = readFileSync(this.certPath);
    const server = createServer({ key: readFileSync(this.keyPath), cert: ca }, (req, res) => {
      if (this.failing) {
        req.resume();
        res.writeHead(500, { 'content-type': 'application/xml' });
        res.end(
          '<?xml version="1.0" encoding="UTF-8"?><Error><Code>InternalError</Code><Message>We encountered an internal error. Please try again.</Message></Error>',
        );
        return;
      }
      const upstream = httpsRequest({ host: '127.0.0.1', port: this.upstreamPort, method: req.method, path: req.url, headers: req.headers, ca }, (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      });
      upstream.on('error', () => res.destroy());
      req.pipe(upstream);
    });
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve));
    this.server = server;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (!server) return;
    const closed = new Promise((r) => server.close(r));
    server.closeAllConnections();
    await closed;
  }
}
