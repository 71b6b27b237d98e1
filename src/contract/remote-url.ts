// Where Sanad may fetch something that matters from (an update feed, a hub, a model file): HTTPS
// anywhere, plain HTTP only on this computer's loopback, never with a user name or password in the
// URL. A token or a file that travels in clear text over a network can be read or replaced.

/** The loopback host names plain HTTP is allowed to. */
const LOOPBACK_HOSTS = ['localhost', '127.0.0.1', '[::1]'];

export function isSafeRemoteUrl(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.username !== '' || url.password !== '') return false;
  if (url.protocol === 'https:') return true;
  return url.protocol === 'http:' && LOOPBACK_HOSTS.includes(url.hostname);
}
