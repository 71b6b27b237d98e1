// The files electron-builder packs into the app for one platform and architecture, computed from
// build/electron-builder.yml without packaging (no Electron binary can be had here): the app's own
// files matched by `files`, every production dependency under node_modules (electron-builder adds
// them itself), then the patterns in order (the root's, then the platform's), `${os}` and `${arch}`
// filled in, a later pattern deciding over an earlier one. The size budget in npm test and the
// bench's packed-size figure read it.
import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { createRequire } from 'node:module';

export type PackOs = 'linux' | 'mac' | 'win';
export type PackArch = 'x64' | 'arm64';

export interface PackedFiles {
  files: string[];
  bytes: number;
}

type Matcher = (path: string) => boolean;

/** A minimatch pattern compiled once (electron-builder matches `files` with minimatch too). */
function compile(root: string, pattern: string): Matcher {
  const mod: unknown = createRequire(join(root, 'package.json'))('minimatch');
  const Minimatch: unknown = typeof mod === 'function' ? Reflect.get(mod, 'Minimatch') : undefined;
  if (typeof Minimatch !== 'function') throw new Error('minimatch is not installed (electron-builder brings it)');
  const compiled: unknown = Reflect.construct(Minimatch, [pattern, { dot: true }]);
  const match: unknown = typeof compiled === 'object' && compiled !== null ? Reflect.get(compiled, 'match') : undefined;
  if (typeof match !== 'function') throw new Error('minimatch has no match()');
  return (path) => Boolean(Reflect.apply(match, compiled, [path]));
}

/** The `files` patterns of a section of the YAML config (a plain list of quoted or bare strings). */
export function filesPatterns(yaml: string, section: 'root' | PackOs, extra = ''): string[] {
  const lines = (yaml + extra).split('\n');
  const out: string[] = [];
  let inSection = section === 'root';
  let inFiles = false;
  for (const line of lines) {
    if (/^\S/.test(line)) {
      inSection = section === 'root' ? true : line.startsWith(`${section}:`);
      inFiles = section === 'root' && line.startsWith('files:');
      continue;
    }
    if (section !== 'root' && inSection && /^ {2}files:/.test(line)) {
      inFiles = true;
      continue;
    }
    if (section !== 'root' && /^ {2}\S/.test(line)) inFiles = false;
    const item = /^\s+- "?([^"#]+?)"?\s*$/.exec(line);
    if (inSection && inFiles && item?.[1] !== undefined) out.push(item[1]);
  }
  return out;
}

function walk(dir: string, root: string, into: string[]): void {
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    const info = lstatSync(full);
    if (info.isSymbolicLink()) continue;
    if (info.isDirectory()) walk(full, root, into);
    else into.push(relative(root, full).split(sep).join('/'));
  }
}

/** The production dependencies' folders, relative to root (npm's own view of what the app needs). */
function productionDependencies(root: string): string[] {
  const ls = spawnSync('npm', ['ls', '--omit=dev', '--parseable', '--all'], { cwd: root, encoding: 'utf8' });
  return ls.stdout
    .split('\n')
    .filter((l) => l.startsWith(join(root, 'node_modules')))
    .map((l) => relative(root, l));
}

export function packedFiles(root: string, os: PackOs, arch: PackArch, configPath = join(root, 'build', 'electron-builder.yml')): PackedFiles {
  const yaml = readFileSync(configPath, 'utf8');
  const fill = (p: string): string => p.replaceAll('${os}', os).replaceAll('${arch}', arch);
  const patterns = [...filesPatterns(yaml, 'root'), ...filesPatterns(yaml, os)].map(fill);
  const rules = patterns.map((p) => ({ negated: p.startsWith('!'), match: compile(root, p.startsWith('!') ? p.slice(1) : p) }));
  const candidates: string[] = [];
  for (const top of ['package.json', 'bin', 'dist', 'build/icons']) {
    const full = join(root, top);
    if (!existsSync(full)) continue;
    if (lstatSync(full).isDirectory()) walk(full, root, candidates);
    else candidates.push(top);
  }
  const fromNodeModules = new Set<string>();
  const seen = new Set<string>();
  for (const dep of productionDependencies(root)) {
    if (seen.has(dep)) continue;
    seen.add(dep);
    const files: string[] = [];
    // A dependency's own node_modules are listed by npm as dependencies of their own.
    for (const name of readdirSync(join(root, dep))) {
      if (name === 'node_modules') continue;
      const full = join(root, dep, name);
      if (lstatSync(full).isDirectory()) walk(full, root, files);
      else if (lstatSync(full).isFile()) files.push(relative(root, full).split(sep).join('/'));
    }
    for (const f of files) fromNodeModules.add(f);
  }
  const included: string[] = [];
  for (const file of [...candidates, ...fromNodeModules]) {
    let keep = fromNodeModules.has(file);
    for (const rule of rules) if (rule.match(file)) keep = !rule.negated;
    if (keep) included.push(file);
  }
  let bytes = 0;
  for (const f of included) bytes += lstatSync(join(root, f)).size;
  return { files: included, bytes };
}
