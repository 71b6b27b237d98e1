// Sanad's version, from package.json (two levels above the compiled file: dist/src/version.js).
import { readFileSync } from 'node:fs';

function readVersion(): string {
  try {
    const pkg: unknown = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
    return typeof pkg === 'object' && pkg !== null && 'version' in pkg && typeof pkg.version === 'string' ? pkg.version : 'unknown';
  } catch {
    return 'unknown';
  }
}

export const APP_VERSION = readVersion();
