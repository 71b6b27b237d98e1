// The property names Electron's own type definitions declare for an options interface
// (node_modules/electron/electron.d.ts, the version package.json pins), read at run time: the
// stand-in refuses an option Electron does not know, and an Electron upgrade that drops one makes
// it refuse that too, with no list here to keep in step.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

let source: string | null = null;

function definitions(): string {
  if (source === null) {
    const require = createRequire(import.meta.url);
    source = readFileSync(join(dirname(require.resolve('electron/package.json')), 'electron.d.ts'), 'utf8');
  }
  return source;
}

/** Own members of `interface name` plus those of the interfaces it extends. */
export function declaredKeys(name: string): Set<string> {
  const text = definitions();
  const head = new RegExp(`^  interface ${name}(?: extends ([\\w, .]+))? \\{$`, 'm').exec(text);
  if (!head) throw new Error(`electron.d.ts declares no interface ${name}`);
  const keys = new Set<string>();
  const body = text.slice(head.index + head[0].length, text.indexOf('\n  }\n', head.index));
  // Members sit at four spaces; nested object types and comments are deeper or start with /*.
  for (const m of body.matchAll(/^ {4}(\w+)\??:/gm)) if (m[1] !== undefined) keys.add(m[1]);
  for (const parent of (head[1] ?? '')
    .split(',')
    .map((s) => s.trim().replace(/^Electron\./, ''))
    .filter((s) => s !== '')) {
    for (const k of declaredKeys(parent)) keys.add(k);
  }
  return keys;
}

/** The option names in `given` that `interface name` does not declare. */
export function unknownKeys(given: object, name: string): string[] {
  const known = declaredKeys(name);
  return Object.keys(given).filter((k) => !known.has(k));
}
