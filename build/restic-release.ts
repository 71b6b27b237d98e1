// The restic binaries a desktop build ships, fetched by scripts/fetch-restic.mjs from restic's
// GitHub releases and accepted only when their SHA-256 matches a value pinned in the repository
// (build/restic/checksums.json). Pinning happens once per restic version, where the internet is
// reachable: `node scripts/fetch-restic.mjs --pin` reads that release's SHA256SUMS (restic signs it:
// SHA256SUMS.asc) and writes the five values, which a maintainer compares and commits. A normal
// fetch never trusts what it downloads: an archive without a pinned value, or with another one, is
// refused and nothing is written.
// Layout: build/restic/<os>/<arch>/restic[.exe], with electron-builder's ${os} (linux, mac, win) and
// ${arch} (x64, arm64) names, so extraResources can pick the right one per target.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { z } from 'zod';

/** The restic version desktop builds ship; changing it means pinning again (--pin). */
export const RESTIC_VERSION = '0.18.1';
export const RELEASES = 'https://github.com/restic/restic/releases/download';

export type BuilderOs = 'linux' | 'mac' | 'win';
export type BuilderArch = 'x64' | 'arm64';

export interface ResticAsset {
  os: BuilderOs;
  arch: BuilderArch;
  /** The release file, e.g. restic_0.18.1_linux_amd64.bz2. */
  file: string;
  format: 'bz2' | 'zip';
  binary: 'restic' | 'restic.exe';
}

const TARGETS: ReadonlyArray<{ os: BuilderOs; arch: BuilderArch; goos: string; goarch: string }> = [
  { os: 'linux', arch: 'x64', goos: 'linux', goarch: 'amd64' },
  { os: 'linux', arch: 'arm64', goos: 'linux', goarch: 'arm64' },
  { os: 'mac', arch: 'x64', goos: 'darwin', goarch: 'amd64' },
  { os: 'mac', arch: 'arm64', goos: 'darwin', goarch: 'arm64' },
  { os: 'win', arch: 'x64', goos: 'windows', goarch: 'amd64' },
];

export function resticAssets(version: string = RESTIC_VERSION): ResticAsset[] {
  return TARGETS.map((t) => {
    const win = t.os === 'win';
    return {
      os: t.os,
      arch: t.arch,
      file: `restic_${version}_${t.goos}_${t.goarch}.${win ? 'zip' : 'bz2'}`,
      format: win ? 'zip' : 'bz2',
      binary: win ? 'restic.exe' : 'restic',
    };
  });
}

export function builderOs(platform: NodeJS.Platform): BuilderOs | null {
  return platform === 'linux' ? 'linux' : platform === 'darwin' ? 'mac' : platform === 'win32' ? 'win' : null;
}

export const assetUrl = (version: string, file: string, base = RELEASES): string => `${base}/v${version}/${file}`;

const PinnedSchema = z.object({
  version: z.string().regex(/^\d+\.\d+\.\d+$/),
  sha256: z.record(z.string(), z.string().regex(/^[0-9a-f]{64}$/)),
});
export type PinnedChecksums = z.infer<typeof PinnedSchema>;

export function parsePinned(json: unknown): PinnedChecksums {
  const parsed = PinnedSchema.safeParse(json);
  if (!parsed.success)
    throw new Error(
      'build/restic/checksums.json is not {"version": "x.y.z", "sha256": {"<file>": "<64 hex>"}}; fix it or run `node scripts/fetch-restic.mjs --pin`.',
    );
  return parsed.data;
}

/** `<sha256>  <file>` lines (sha256sum's format; `*` marks binary mode). */
export function parseSha256Sums(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of text.split(/\r?\n/)) {
    const m = /^([0-9a-fA-F]{64})\s+\*?(\S+)$/.exec(line.trim());
    if (m?.[1] && m[2]) out.set(m[2], m[1].toLowerCase());
  }
  return out;
}

/** The pinned table for `version` from a release's SHA256SUMS: every shipped asset must be listed. */
export function pinFromSums(version: string, sumsText: string): PinnedChecksums {
  const sums = parseSha256Sums(sumsText);
  const sha256: Record<string, string> = {};
  for (const asset of resticAssets(version)) {
    const value = sums.get(asset.file);
    if (value === undefined) throw new Error(`SHA256SUMS of restic ${version} has no line for ${asset.file}; check the version.`);
    sha256[asset.file] = value;
  }
  return { version, sha256 };
}

/** The release's SHA256SUMS text (for --pin). */
export async function downloadSums(version: string, base = RELEASES): Promise<string> {
  const url = assetUrl(version, 'SHA256SUMS', base);
  const res = await fetch(url, { redirect: 'follow' }).catch((err: unknown) => {
    throw new Error(`Downloading ${url} failed (${err instanceof Error ? err.message : String(err)}); this needs the internet.`);
  });
  if (!res.ok) throw new Error(`Downloading ${url} failed: HTTP ${res.status}.`);
  return res.text();
}

export type ArchiveVerdict = { ok: true; sha256: string } | { ok: false; reason: string };

/** The pinned value for an asset, or why there is none (checked before any download). */
export function pinnedSha256(asset: ResticAsset, version: string, pinned: PinnedChecksums): ArchiveVerdict {
  if (pinned.version !== version)
    return { ok: false, reason: `the pinned checksums are for restic ${pinned.version}, not ${version}; run --pin for ${version}` };
  const expected = pinned.sha256[asset.file];
  if (expected === undefined) return { ok: false, reason: `${asset.file} has no pinned checksum; run --pin where the internet is reachable` };
  return { ok: true, sha256: expected };
}

export function checkArchive(bytes: Buffer, asset: ResticAsset, version: string, pinned: PinnedChecksums): ArchiveVerdict {
  const expected = pinnedSha256(asset, version, pinned);
  if (!expected.ok) return expected;
  const actual = createHash('sha256').update(bytes).digest('hex');
  if (actual !== expected.sha256) return { ok: false, reason: `${asset.file} has sha256 ${actual}, but ${expected.sha256} is pinned: refusing it` };
  return { ok: true, sha256: actual };
}

export function binaryPath(root: string, asset: ResticAsset): string {
  return join(root, asset.os, asset.arch, asset.binary);
}

/** The restic executable out of a verified archive (bunzip2; unzip, or bsdtar on Windows). */
export function extractBinary(archive: Buffer, asset: ResticAsset, platform: NodeJS.Platform = process.platform): Buffer {
  if (asset.format === 'bz2') {
    const r = spawnSync('bunzip2', ['-c'], { input: archive, maxBuffer: 512 * 1024 * 1024 });
    if (r.error || r.status !== 0)
      throw new Error(`bunzip2 could not unpack ${asset.file} (${r.error?.message ?? r.stderr.toString().trim()}); install bzip2.`);
    return r.stdout;
  }
  const dir = mkdtempSync(join(tmpdir(), 'sanad-restic-zip-'));
  try {
    const zip = join(dir, asset.file);
    writeFileSync(zip, archive);
    const member = asset.file.replace(/\.zip$/, '.exe');
    const [cmd, args] = platform === 'win32' ? (['tar', ['-xOf', zip, member]] as const) : (['unzip', ['-p', zip, member]] as const);
    const r = spawnSync(cmd, args, { maxBuffer: 512 * 1024 * 1024 });
    if (r.error || r.status !== 0 || r.stdout.length === 0)
      throw new Error(`${cmd} could not unpack ${member} from ${asset.file} (${r.error?.message ?? r.stderr.toString().trim()}).`);
    return r.stdout;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Downloads, verifies, unpacks and installs one asset; nothing is written unless it verified. */
export async function fetchAsset(
  asset: ResticAsset,
  options: { version: string; pinned: PinnedChecksums; root: string; base?: string; platform?: NodeJS.Platform },
): Promise<string> {
  const url = assetUrl(options.version, asset.file, options.base);
  // Refuse before downloading what could never be accepted.
  const expected = pinnedSha256(asset, options.version, options.pinned);
  if (!expected.ok) throw new Error(`Refusing ${url}: ${expected.reason}.`);
  const res = await fetch(url, { redirect: 'follow' }).catch((err: unknown) => {
    throw new Error(`Downloading ${url} failed (${err instanceof Error ? err.message : String(err)}); this needs the internet.`);
  });
  if (!res.ok) throw new Error(`Downloading ${url} failed: HTTP ${res.status}.`);
  const bytes = Buffer.from(await res.arrayBuffer());
  const verdict = checkArchive(bytes, asset, options.version, options.pinned);
  if (!verdict.ok) throw new Error(`Refusing ${url}: ${verdict.reason}.`);
  const binary = extractBinary(bytes, asset, options.platform);
  const target = binaryPath(options.root, asset);
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(`${target}.partial`, binary, { mode: 0o755 });
  chmodSync(`${target}.partial`, 0o755);
  renameSync(`${target}.partial`, target);
  return target;
}
