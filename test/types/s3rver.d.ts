// s3rver 3.7.1 ships no types: only what the S3 test server uses (lib/s3rver.js, its README).
declare module 's3rver' {
  import type { Server } from 'node:https';
  import type { AddressInfo } from 'node:net';

  interface S3rverOptions {
    address?: string;
    port?: number;
    /** PEM; with `cert`, s3rver serves HTTPS. */
    key?: string | Buffer;
    cert?: string | Buffer;
    silent?: boolean;
    directory: string;
    resetOnClose?: boolean;
    vhostBuckets?: boolean;
    configureBuckets?: { name: string; configs?: (string | Buffer)[] }[];
  }

  export default class S3rver {
    constructor(options: S3rverOptions);
    /** Creates `configureBuckets`, then listens. */
    run(): Promise<AddressInfo>;
    close(): Promise<void>;
    /** Set by run(); an https.Server when key and cert were given. */
    httpServer?: Server;
  }
}
