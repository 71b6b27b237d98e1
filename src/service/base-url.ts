// The service's own address as a URL (an IPv6 host in brackets), for links it hands out.
import type { ServiceContext } from './context.js';
import { bracketed } from './listener.js';

export function serviceBaseUrl(ctx: Pick<ServiceContext, 'address'>): string {
  const { host, port } = ctx.address;
  return `http://${bracketed(host)}:${port}`;
}
