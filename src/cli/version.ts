// `sanad --version`: Sanad's version (package.json's, three folders up from dist/src/cli/) and the
// Node running it, which decides whether the native modules load.
import { readFileSync } from 'node:fs';

export function versionLine(): { sanad: string; text: string } {
  let sanad = 'unknown';
  try {
    const parsed: unknown = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8'));
    if (typeof parsed === 'object' && parsed !== null && 'version' in parsed && typeof parsed.version === 'string') sanad = parsed.version;
  } catch {
    // Not beside its package.json (a copied dist/): the Node version alone still helps a report.
  }
  return { sanad, text: `sanad ${sanad} (Node ${process.versions.node})` };
}
