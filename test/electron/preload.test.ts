// The preload as a sandboxed renderer runs it (simulated renderer: no Electron binary can run
// here): electron/preload.cts compiled by TypeScript to CommonJS, then evaluated in a fresh V8
// context with only what a sandboxed preload gets: a `require` that knows nothing but 'electron',
// `process`, `exports` and `module`. It must load without any other module, expose exactly the
// bridge under `sanadDesktop`, and pass the main process's answers through only when well formed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { runInNewContext } from 'node:vm';
import ts from 'typescript';
import { BRIDGE_CHANNELS, BRIDGE_GLOBAL } from '../../src/contract/desktop-bridge.js';

const SOURCE = fileURLToPath(new URL('../../../electron/preload.cts', import.meta.url));

interface Loaded {
  exposed: Map<string, unknown>;
  invoked: string[];
  required: string[];
}

function load(reply: (channel: string) => unknown, platform = 'linux'): Loaded {
  const js = ts.transpileModule(readFileSync(SOURCE, 'utf8'), {
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, strict: true },
    fileName: 'preload.cts',
  }).outputText;
  const exposed = new Map<string, unknown>();
  const invoked: string[] = [];
  const required: string[] = [];
  const electron = {
    contextBridge: { exposeInMainWorld: (key: string, api: unknown) => exposed.set(key, api) },
    ipcRenderer: {
      invoke: async (channel: string) => {
        invoked.push(channel);
        return reply(channel);
      },
    },
  };
  const sandboxRequire = (name: string): unknown => {
    required.push(name);
    if (name === 'electron') return electron;
    throw new Error(`module not found: ${name} (a sandboxed preload can only require electron)`);
  };
  const exports = {};
  // Electron's sandboxed preload wrapper passes these (lib/sandboxed_renderer/preload.ts).
  const wrapper: unknown = runInNewContext(`(function (require, process, exports, module) {\n${js}\n})`, {}, { filename: 'preload.cjs' });
  assert.equal(typeof wrapper, 'function');
  if (typeof wrapper === 'function') Reflect.apply(wrapper, undefined, [sandboxRequire, { platform }, exports, { exports }]);
  return { exposed, invoked, required };
}

function method(api: unknown, name: string): (...args: unknown[]) => Promise<unknown> {
  assert.ok(typeof api === 'object' && api !== null && name in api);
  const fn: unknown = Object.entries(api).find(([k]) => k === name)?.[1];
  if (typeof fn !== 'function') throw new Error(`${name} is not a function on the bridge`);
  return (...args: unknown[]) => {
    const out: unknown = Reflect.apply(fn, api, args);
    return Promise.resolve(out);
  };
}

test('preload (simulated renderer): loads with only electron, exposes exactly the typed bridge', async () => {
  const replies: Record<string, unknown> = {
    [BRIDGE_CHANNELS.session]: { url: 'http://127.0.0.1:41234', loginCode: 'one-time', extra: 'dropped' },
    [BRIDGE_CHANNELS.pickModelFile]: '/models/tiny.gguf',
    [BRIDGE_CHANNELS.pickFolder]: null,
  };
  const { exposed, invoked, required } = load((c) => replies[c]);
  assert.deepEqual(required, ['electron']);
  assert.deepEqual([...exposed.keys()], [BRIDGE_GLOBAL]);
  const api = exposed.get(BRIDGE_GLOBAL);
  assert.ok(typeof api === 'object' && api !== null);
  assert.deepEqual(Object.keys(api).sort(), ['pickFolder', 'pickModelFile', 'platform', 'session']);
  assert.ok('platform' in api && api.platform === 'linux');
  // The object comes from the preload's own realm: compare its content.
  assert.equal(JSON.stringify(await method(api, 'session')()), JSON.stringify({ url: 'http://127.0.0.1:41234', loginCode: 'one-time' }));
  assert.equal(await method(api, 'pickModelFile')(), '/models/tiny.gguf');
  assert.equal(await method(api, 'pickFolder')(), null);
  assert.deepEqual(invoked, [BRIDGE_CHANNELS.session, BRIDGE_CHANNELS.pickModelFile, BRIDGE_CHANNELS.pickFolder]);
});

test('preload (simulated renderer): malformed answers from the main process do not reach the page', async () => {
  const { exposed } = load((c) => (c === BRIDGE_CHANNELS.session ? { url: 5 } : { path: '/x' }), 'win32');
  const api = exposed.get(BRIDGE_GLOBAL);
  await assert.rejects(method(api, 'session')(), /did not give this page a session/);
  assert.equal(await method(api, 'pickFolder')(), null);
  assert.ok(typeof api === 'object' && api !== null && 'platform' in api && api.platform === 'win32');
  const mac = load(() => null, 'darwin').exposed.get(BRIDGE_GLOBAL);
  assert.ok(typeof mac === 'object' && mac !== null && 'platform' in mac && mac.platform === 'darwin');
  const other = load(() => null, 'freebsd').exposed.get(BRIDGE_GLOBAL);
  assert.ok(typeof other === 'object' && other !== null && 'platform' in other && other.platform === 'linux');
});
