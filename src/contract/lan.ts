// GET /admin/lan: the network listener for paired devices (off by default), written once.
import { z } from 'zod/v3';

export const LanStatus = z.object({
  /** The switch (Settings, or `sanad serve --lan` for this run). */
  enabled: z.boolean(),
  /** Listening now (false while off, or when it could not start: see `error`). */
  running: z.boolean(),
  port: z.number(),
  /** Where a device reaches it: the first of `urls` (the machine's first network address). */
  url: z.string().nullable(),
  urls: z.array(z.string()),
  /** SHA-256 of the certificate a device pins (GET /v1/tls/certificate), lower-case hex. */
  tls_fingerprint_sha256: z.string().nullable(),
  /** That certificate itself (public), for a device to trust; null before it is first made. */
  certificate_pem: z.string().nullable(),
  /** The names and addresses the listener's certificate carries (Host must be one of them). */
  names: z.array(z.string()),
  /** Announced as `_lmsp._tcp` on the network (mDNS / DNS-SD). */
  advertising: z.boolean(),
  certificate_expires_at: z.number().nullable(),
  error: z.string().nullable(),
});
export type LanStatus = z.infer<typeof LanStatus>;
