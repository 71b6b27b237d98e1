// A free TCP port for a test server that is stopped and started again on the same port.
//
// Why not listen(0): the kernel hands out 0-ports from the ephemeral range (32768-60999 on Linux),
// the same range every outgoing connection's local port comes from. With two test files running
// side by side, a port a test closed for a moment could be taken by the other file's next
// connection, and the test's listen on it again failed with EADDRINUSE (seen in CI: the network
// listener switched off and on). Below that range only a listener asks for a port by number.
import { createServer } from 'node:net';

const LOW = 20000;
const HIGH = 32767;

function tryListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    // 0.0.0.0 covers every address: a port free there is free on loopback and the veth address too.
    server.listen(port, '0.0.0.0', () => server.close(() => resolve(true)));
  });
}

/** A port below the ephemeral range that nothing listens on or is bound to now. */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const port = LOW + Math.floor(Math.random() * (HIGH - LOW + 1));
    if (await tryListen(port)) return port;
  }
  throw new Error(`No free port between ${LOW} and ${HIGH} after 200 tries.`);
}
