// build/electron-builder.yml, checked without packaging (no Electron binary can be had here):
// electron-builder's own loader and schema validation accept it, a wrong key is refused, and it
// agrees with the rest of the shell: the entry is the compiled main.ts, native modules are
// unpacked from the asar, and each platform's restic comes from where fetch-restic puts it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { packedFiles } from '../../build/packed-files.js';
import { binaryPath, resticAssets } from '../../build/restic-release.js';
import { GUI_DIR } from '../../src/service/routes/gui.js';
import { updaterConfig, WINDOWS_PUBLISHER } from '../../electron/logic/updates.js';
import { tempDir } from '../harness/data-dir.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const CONFIG = join(ROOT, 'build', 'electron-builder.yml');
const require = createRequire(join(ROOT, 'package.json'));

/** A function exported by one of electron-builder's own modules (pinned 26.17.0; internal paths). */
function builderFn(module: string, name: string): (...args: unknown[]) => unknown {
  const mod: unknown = require(module);
  const fn: unknown = typeof mod === 'object' && mod !== null ? Object.entries(mod).find(([k]) => k === name)?.[1] : undefined;
  if (typeof fn !== 'function') throw new Error(`${module} has no ${name}`);
  return (...args: unknown[]): unknown => Reflect.apply(fn, undefined, args);
}

// electron-builder logs to stdout, which is node:test's channel to its runner (its lines interleaved
// with the runner's messages once broke the run: "Unable to deserialize cloned data"): to stderr.
const builderLog = get(require('builder-util/out/log.js'), 'log');
if (typeof builderLog === 'object' && builderLog !== null) Reflect.set(builderLog, 'stream', process.stderr);

async function loadAndValidate(path: string): Promise<Record<string, unknown>> {
  const getConfig = builderFn('app-builder-lib/out/util/config/config.js', 'getConfig');
  const validate = builderFn('app-builder-lib/out/util/config/config.js', 'validateConfiguration');
  const DebugLogger = get(require('builder-util/out/DebugLogger.js'), 'DebugLogger');
  if (typeof DebugLogger !== 'function') throw new Error('no DebugLogger');
  const config: unknown = await getConfig(ROOT, path, null);
  await validate(config, Reflect.construct(DebugLogger, [false]));
  assert.ok(typeof config === 'object' && config !== null);
  return Object.fromEntries(Object.entries(config));
}

function get(value: unknown, ...path: string[]): unknown {
  let cur = value;
  for (const key of path) cur = typeof cur === 'object' && cur !== null ? Object.entries(cur).find(([k]) => k === key)?.[1] : undefined;
  return cur;
}

test('electron-builder accepts build/electron-builder.yml and refuses a broken copy', async () => {
  const config = await loadAndValidate(CONFIG);
  assert.equal(get(config, 'productName'), 'Sanad');
  assert.deepEqual(get(config, 'linux', 'target'), ['AppImage', 'deb']);
  assert.deepEqual(get(config, 'mac', 'target'), ['dmg']);
  assert.deepEqual(get(config, 'win', 'target'), ['nsis']);
  // Updates on Windows install only when signed by the publisher the app pins: the build signs as it.
  assert.equal(get(config, 'win', 'signtoolOptions', 'publisherName'), WINDOWS_PUBLISHER);
  assert.match(updaterConfig('nsis'), new RegExp(`publisherName:\\n  - ${WINDOWS_PUBLISHER}\\n`));
  const depends = get(config, 'deb', 'depends');
  assert.ok(Array.isArray(depends) && depends.includes('libsecret-1-0'), 'the keychain library links the Secret Service client');
  // The CUDA build: the same config, with the CUDA binaries put back and its own artifact name.
  const cuda = await loadAndValidate(join(ROOT, 'build', 'electron-builder-cuda.yml'));
  assert.equal(get(cuda, 'productName'), 'Sanad', 'it extends the ordinary config');
  const cudaFiles = get(cuda, 'linux', 'files');
  assert.ok(Array.isArray(cudaFiles) && cudaFiles.some((f) => String(f).includes('-cuda/')), 'and packs the CUDA binaries');
  const broken = join(tempDir('sanad-builder-'), 'broken.yml');
  writeFileSync(broken, readFileSync(CONFIG, 'utf8').replace('asar: true', 'asar: true\nasarUnpackk: []'));
  await assert.rejects(loadAndValidate(broken), /asarUnpackk/);
});

test('the packaging config agrees with the shell: entry, native modules, restic per platform', async () => {
  const config = await loadAndValidate(CONFIG);
  assert.equal(get(config, 'extraMetadata', 'main'), 'dist/electron/main.js');
  assert.ok(existsSync(join(ROOT, 'electron', 'main.ts')), 'the entry is compiled from electron/main.ts');
  const unpack = get(config, 'asarUnpack');
  assert.ok(Array.isArray(unpack));
  for (const native of ['better-sqlite3', '@zowe/secrets-for-zowe-sdk', 'node-llama-cpp', '@node-llama-cpp']) {
    assert.ok(unpack.includes(`node_modules/${native}/**`), native);
  }
  assert.ok(unpack.includes('**/*.node'));
  assert.equal(get(config, 'npmRebuild'), true);
  for (const [os, key] of [
    ['linux', 'linux'],
    ['mac', 'mac'],
    ['win', 'win'],
  ] as const) {
    const resources = get(config, key, 'extraResources');
    assert.ok(Array.isArray(resources) && resources.length === 1, key);
    const from = get(resources[0], 'from');
    const to = get(resources[0], 'to');
    for (const asset of resticAssets().filter((a) => a.os === os)) {
      assert.equal(join(ROOT, String(from).replace('${arch}', asset.arch)), binaryPath(join(ROOT, 'build', 'restic'), asset), `${os}/${asset.arch}`);
      assert.equal(to, asset.binary, 'the core finds it as resources/restic[.exe] (core-host.ts bundledResticPath)');
    }
  }
});

/** electron-builder's own file filter for the `files` patterns of the config (FileMatcher). */
function packedFilter(config: Record<string, unknown>): (relative: string) => boolean {
  const FileMatcher = get(require('app-builder-lib/out/fileMatcher.js'), 'FileMatcher');
  if (typeof FileMatcher !== 'function') throw new Error('no FileMatcher');
  // getConfig normalizes `files` to [{ filter: [...] }].
  const files = get(config, 'files');
  const patterns = Array.isArray(files) ? files.flatMap((f: unknown) => get(f, 'filter') ?? f) : [];
  assert.ok(patterns.length > 0 && patterns.every((p) => typeof p === 'string'), JSON.stringify(files));
  const matcher: unknown = Reflect.construct(FileMatcher, [ROOT, '/packed', (s: string) => s, patterns]);
  const create: unknown = typeof matcher === 'object' && matcher !== null ? Reflect.get(matcher, 'createFilter') : undefined;
  if (typeof create !== 'function') throw new Error('no createFilter');
  const filter: unknown = Reflect.apply(create, matcher, []);
  if (typeof filter !== 'function') throw new Error('no filter');
  // A file is packed when it and every folder above it pass (copyDir walks down from the root).
  return (relative) => {
    const parts = relative.split('/');
    return parts.every((_, i) => {
      const path = join(ROOT, ...parts.slice(0, i + 1));
      return Reflect.apply(filter, undefined, [path, statSync(path)]) === true;
    });
  };
}

test('after npm run build, every file the desktop app loads at run time exists and is packed; tests are not', async () => {
  const config = await loadAndValidate(CONFIG);
  const packed = packedFilter(config);
  // What dist/electron/main.js opens by path (main.ts: ICONS, PRELOAD; the core: GUI_DIR).
  const needed = [
    'package.json',
    'bin/sanad.js',
    'dist/electron/main.js',
    'dist/electron/preload.cjs',
    'dist/gui/index.html',
    'dist/src/appliance/appliance.js',
    'build/icons/icon.png',
    ...(['healthy', 'running', 'warning', 'failing'] as const).flatMap((s) => [`build/icons/tray-${s}.png`, `build/icons/tray-${s}@2x.png`]),
  ];
  for (const file of needed) {
    assert.ok(existsSync(join(ROOT, file)), `${file} exists after the build`);
    assert.ok(packed(file), `${file} is packed`);
  }
  const assets = readdirSync(join(ROOT, 'dist', 'gui', 'assets'));
  assert.ok(
    assets.some((f) => f.endsWith('.js')) && assets.filter((f) => !f.endsWith('.map')).every((f) => packed(`dist/gui/assets/${f}`)),
    'the GUI assets are packed',
  );
  assert.ok(
    assets.filter((f) => f.endsWith('.map')).every((f) => !packed(`dist/gui/assets/${f}`)),
    'source maps are not',
  );
  assert.equal(GUI_DIR, join(ROOT, 'dist', 'gui') + '/', 'the core serves the GUI from the packed dist/gui');
  for (const file of ['dist/test/electron/stand-in/electron.js', 'dist/electron/main.js.map', 'electron/main.ts', 'src/appliance/appliance.ts']) {
    if (existsSync(join(ROOT, file))) assert.equal(packed(file), false, `${file} is not packed`);
  }
  // The main entry the packed package.json gets is the built file.
  assert.ok(existsSync(join(ROOT, String(get(config, 'extraMetadata', 'main')))));
});

test("the packaged binary's fuses: no run-as-Node, no NODE_OPTIONS or --inspect, encrypted cookies, asar only and checked", async () => {
  const config = await loadAndValidate(CONFIG);
  assert.deepEqual(get(config, 'electronFuses'), {
    runAsNode: false,
    enableNodeOptionsEnvironmentVariable: false,
    enableNodeCliInspectArguments: false,
    enableCookieEncryption: true,
    enableEmbeddedAsarIntegrityValidation: true,
    onlyLoadAppFromAsar: true,
    grantFileProtocolExtraPrivileges: false,
  });
  // A misspelt fuse is refused by electron-builder's own schema, not silently left at its default.
  const broken = join(tempDir('sanad-builder-'), 'fuses.yml');
  writeFileSync(broken, readFileSync(CONFIG, 'utf8').replace('runAsNode: false', 'runAsNod: false'));
  await assert.rejects(loadAndValidate(broken), /does not match the API schema/);
});

test("the Linux x64 app packs one platform's llama.cpp binaries (CPU and Vulkan, no CUDA) and stays within 250 MiB", () => {
  const linux = packedFiles(ROOT, 'linux', 'x64');
  const llama = new Set(linux.files.filter((f) => f.startsWith('node_modules/@node-llama-cpp/')).map((f) => f.split('/')[2]));
  assert.deepEqual([...llama].sort(), ['linux-x64', 'linux-x64-vulkan']);
  assert.deepEqual(
    linux.files.filter((f) => f.endsWith('.node') && f.includes('secrets-for-zowe-sdk')),
    ['node_modules/@zowe/secrets-for-zowe-sdk/prebuilds/keyring.linux-x64-gnu.node'],
    "one keychain addon: this platform's",
  );
  for (const needed of [
    'node_modules/better-sqlite3/build/Release/better_sqlite3.node',
    'node_modules/@zowe/secrets-for-zowe-sdk/prebuilds/keyring.linux-x64-gnu.node',
    'node_modules/@zowe/secrets-for-zowe-sdk/src/keyring/index.js',
    'dist/electron/main.js',
    'build/icons/icon.png',
  ]) {
    assert.ok(linux.files.includes(needed), `${needed} is packed`);
  }
  assert.ok(
    linux.files.some((f) => f.startsWith('node_modules/node-llama-cpp/llama/grammars/')),
    'the grammars structured output needs',
  );
  for (const never of [/^node_modules\/typescript\//, /^node_modules\/better-sqlite3\/deps\//, /gitRelease\.bundle$/, /^dist\/test\//, /\.map$/]) {
    assert.ok(!linux.files.some((f) => never.test(f)), `nothing matching ${String(never)}`);
  }
  const mib = linux.bytes / 1024 / 1024;
  assert.ok(mib <= 250, `the Linux x64 app's files are ${mib.toFixed(1)} MiB (budget 250 MiB without CUDA)`);
  // Another platform's package never carries this one's binaries.
  for (const [os, arch] of [
    ['mac', 'arm64'],
    ['win', 'x64'],
    ['linux', 'arm64'],
  ] as const) {
    const other = packedFiles(ROOT, os, arch);
    assert.ok(!other.files.some((f) => f.startsWith('node_modules/@node-llama-cpp/linux-x64')), `${os} ${arch} packs no linux-x64 binaries`);
  }
});
