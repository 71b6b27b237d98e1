#!/usr/bin/env node
// Fetches the restic binaries a desktop build ships into build/restic/<os>/<arch>/, accepting only
// archives whose SHA-256 is pinned in build/restic/checksums.json (logic and checks:
// build/restic-release.ts, compiled by `npm run build`). Needs the internet, bunzip2, and
// unzip (or bsdtar on Windows).
//   node scripts/fetch-restic.mjs            the archives for this OS (every arch electron-builder targets)
//   node scripts/fetch-restic.mjs --all      every OS and arch
//   node scripts/fetch-restic.mjs --pin      (maintainers) write checksums.json from the release's SHA256SUMS
// After --pin: compare the values with the signed SHA256SUMS (gpg --verify SHA256SUMS.asc, restic's
// release key) before committing checksums.json. A normal run never trusts what it downloads.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const logic = new URL('../dist/build/restic-release.js', import.meta.url);
if (!existsSync(fileURLToPath(logic))) {
  console.error('Build first (npm run build): this script uses dist/build/restic-release.js.');
  process.exit(1);
}
const { RESTIC_VERSION, assetUrl, builderOs, downloadSums, fetchAsset, parsePinned, pinFromSums, resticAssets } = await import(logic.href);
const table = new URL('../build/restic/checksums.json', import.meta.url);
const args = process.argv.slice(2);

try {
  if (args.includes('--pin')) {
    const pinned = pinFromSums(RESTIC_VERSION, await downloadSums(RESTIC_VERSION));
    writeFileSync(table, `${JSON.stringify(pinned, null, 2)}\n`);
    console.log(`Pinned restic ${RESTIC_VERSION} in build/restic/checksums.json:`);
    for (const [file, sha] of Object.entries(pinned.sha256)) console.log(`  ${sha}  ${file}`);
    console.log(`Check them against ${assetUrl(RESTIC_VERSION, 'SHA256SUMS.asc')} (gpg --verify), then commit the file.`);
  } else {
    const pinned = parsePinned(JSON.parse(readFileSync(table, 'utf8')));
    const os = builderOs(process.platform);
    const wanted = resticAssets(RESTIC_VERSION).filter((a) => args.includes('--all') || a.os === os);
    if (wanted.length === 0) throw new Error(`No restic build is shipped for ${process.platform}.`);
    for (const asset of wanted) {
      const path = await fetchAsset(asset, { version: RESTIC_VERSION, pinned, root: `${root}build/restic` });
      console.log(`restic ${RESTIC_VERSION} ${asset.os}/${asset.arch} verified and installed at ${path}`);
    }
  }
} catch (err) {
  console.error(err instanceof Error ? err.message : String(err));
  process.exit(1);
}
