// Every relative link in README.md and docs/ points at a file that exists inside the repository:
// a reader never follows a link out of the checkout (e.g. into a design folder users do not have).
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const LINK = /\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g;

function documents(): string[] {
  const docs = join(ROOT, 'docs');
  return [
    join(ROOT, 'README.md'),
    ...readdirSync(docs)
      .filter((f) => f.endsWith('.md'))
      .map((f) => join(docs, f)),
  ];
}

test('every relative link in README.md and docs/ resolves inside the repository', () => {
  const docs = documents();
  assert.ok(docs.length >= 6, 'README plus the docs (api, cli, backup-and-restore, security, development)');
  let checked = 0;
  for (const file of docs) {
    const text = readFileSync(file, 'utf8');
    for (const [, raw = ''] of text.matchAll(LINK)) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(raw) || raw.startsWith('#')) continue;
      const target = resolve(dirname(file), decodeURIComponent(raw.split('#')[0] ?? ''));
      const inside = !relative(ROOT, target).startsWith('..');
      assert.ok(inside, `${relative(ROOT, file)} links outside the repository: ${raw}`);
      assert.ok(existsSync(target), `${relative(ROOT, file)} links to a missing file: ${raw}`);
      checked++;
    }
    assert.ok(!/\.\.\/shared\//.test(text), `${relative(ROOT, file)} names the design folder, which users do not have`);
  }
  assert.ok(checked >= 6, `links were found and checked (${checked})`);
});

test('the docs the README promises are there', () => {
  for (const name of ['api.md', 'cli.md', 'backup-and-restore.md', 'security.md', 'development.md']) assert.ok(existsSync(join(ROOT, 'docs', name)), name);
});
