// The `_lmsp._tcp` announcement (mDNS / DNS-SD) while the network listener is on, so a device can
// find the desktop without typing an address. One responder per network address: each answers on
// its own interface (a machine on Wi-Fi and Ethernet is found on both). The TXT record carries the
// fingerprint, so a device can show it beside the one the pairing screen shows.
import { Bonjour, type ServiceConfig } from 'bonjour-service';
import type { Logger } from '../../log/logger.js';

export interface Advert {
  stop(): Promise<void>;
}

export interface AdvertOptions {
  name: string;
  port: number;
  fingerprint: string;
  addresses: string[];
  logger: Logger;
}

export function startAdvert(options: AdvertOptions): Advert {
  const responders = options.addresses.map((address) => {
    // multicast-dns takes these beside bonjour's own: send and listen on this interface only.
    const socket: Partial<ServiceConfig> & { interface: string; bind: string } = { interface: address, bind: '0.0.0.0' };
    const bonjour = new Bonjour(socket, (err: unknown) =>
      options.logger.warn('the network announcement failed', { address, error: err instanceof Error ? err.message : String(err) }),
    );
    bonjour.publish({
      name: options.name,
      type: 'lmsp',
      protocol: 'tcp',
      port: options.port,
      // No probe: a second responder of ours on another interface would look like a name clash.
      probe: false,
      disableIPv6: true,
      txt: { v: '1', path: '/v1', tls: '1', fp: options.fingerprint },
    });
    return bonjour;
  });
  return {
    stop: () =>
      Promise.all(
        responders.map(
          (bonjour) =>
            new Promise<void>((resolve) => {
              // unpublishAll sends the goodbye (TTL 0) so browsers drop it at once, then the socket closes.
              bonjour.unpublishAll(() => bonjour.destroy(() => resolve()));
            }),
        ),
      ).then(() => undefined),
  };
}
