// The project's own test hosts for the network listener: a network namespace joined to this one by
// a veth pair. Sanad runs here (beside the keyring of the test session); a "device" runs inside the
// namespace, where the veth end and loopback are its only interfaces, so it reaches nothing but
// Sanad over the veth addresses. Needs root (CI runs as root); elsewhere the tests say they skip.
import { execFile, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const DEVICE = fileURLToPath(new URL('../network/device.js', import.meta.url));

export interface TestNetwork {
  /** Sanad's address on the veth pair (this namespace). */
  hostAddress: string;
  /** The device's address (inside the namespace). */
  deviceAddress: string;
  /** A second address of the namespace: another host on the same network (an attacker, say). */
  otherAddress: string;
  namespace: string;
  /** Runs test/network/device.ts inside the namespace with one JSON request; its JSON answer. */
  device(request: Record<string, unknown>): Promise<Record<string, unknown>>;
  close(): Promise<void>;
}

/** Why the network tests cannot run here, or null when they can. In CI they must run. */
export function networkSkipReason(): string | null {
  if (process.getuid?.() === 0) return null;
  if (process.env.CI === 'true') throw new Error('The network tests need root in CI (ip netns add).');
  return 'needs root to make network namespaces (run as root, as CI does)';
}

async function ip(...args: string[]): Promise<void> {
  await run('ip', args);
}

export async function makeTestNetwork(): Promise<TestNetwork> {
  // A subnet and names of its own per process, so test files running side by side never meet.
  const n = process.pid % 250;
  const namespace = `sanad-dev-${process.pid}`;
  const hostEnd = `vs${process.pid}`.slice(0, 15);
  const deviceEnd = `vd${process.pid}`.slice(0, 15);
  const hostAddress = `10.213.${n}.1`;
  const deviceAddress = `10.213.${n}.2`;
  const otherAddress = `10.213.${n}.3`;
  await ip('netns', 'add', namespace);
  const close = async (): Promise<void> => {
    await ip('link', 'del', hostEnd).catch(() => undefined);
    await ip('netns', 'del', namespace).catch(() => undefined);
  };
  try {
    await ip('link', 'add', hostEnd, 'type', 'veth', 'peer', 'name', deviceEnd);
    await ip('link', 'set', deviceEnd, 'netns', namespace);
    await ip('addr', 'add', `${hostAddress}/24`, 'dev', hostEnd);
    await ip('link', 'set', hostEnd, 'up');
    const inside = (...args: string[]): Promise<void> => ip('-n', namespace, ...args);
    await inside('link', 'set', 'lo', 'up');
    await inside('addr', 'add', `${deviceAddress}/24`, 'dev', deviceEnd);
    await inside('addr', 'add', `${otherAddress}/24`, 'dev', deviceEnd);
    await inside('link', 'set', deviceEnd, 'up');
    // mDNS goes to 224.0.0.251: out of the veth end (the device has no other way out at all).
    await inside('route', 'add', '224.0.0.0/4', 'dev', deviceEnd);
  } catch (err) {
    await close();
    throw err;
  }
  return {
    hostAddress,
    deviceAddress,
    otherAddress,
    namespace,
    close,
    device: (request) =>
      new Promise((resolve, reject) => {
        const child = spawn('ip', ['netns', 'exec', namespace, process.execPath, DEVICE, JSON.stringify(request)], { stdio: ['ignore', 'pipe', 'pipe'] });
        let out = '';
        let err = '';
        child.stdout.on('data', (d: Buffer) => (out += d.toString()));
        child.stderr.on('data', (d: Buffer) => (err += d.toString()));
        child.once('error', reject);
        child.once('exit', (code) => {
          const line = out.trim().split('\n').pop() ?? '';
          try {
            const parsed: unknown = JSON.parse(line);
            if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) {
              resolve(Object.fromEntries(Object.entries(parsed)));
              return;
            }
          } catch {
            // Reported below with what the device printed.
          }
          reject(new Error(`the device (exit ${String(code)}) printed no JSON answer:\n${out}\n${err}`));
        });
      }),
  };
}
