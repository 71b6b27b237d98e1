// axe-core (WCAG 2 A and AA rules) run inside the real page: the violations of one part of it.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

export interface AxeViolation {
  id: string;
  help: string;
  nodes: string[];
}

export async function axeViolations(page: Page, selector: string): Promise<AxeViolation[]> {
  // Evaluated, not a <script>: the GUI's CSP (script-src 'self') rightly refuses an inline script.
  await page.evaluate(readFileSync(AXE, 'utf8'));
  // A string, so it runs as the page's own script against the page's `axe` global.
  const found: unknown = await page.evaluate(`(async () => {
    const el = document.querySelector(${JSON.stringify(selector)});
    if (!el) throw new Error('no ${selector.replace(/'/g, '')} on the page');
    const r = await axe.run(el, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } });
    if (r.passes.length < 10) throw new Error('axe checked almost nothing: ' + r.passes.length + ' rules passed');
    return r.violations.map((v) => ({ id: v.id, help: v.help, nodes: v.nodes.map((n) => JSON.stringify(n.target)) }));
  })()`);
  return Array.isArray(found) ? found.filter(isViolation) : [];
}

function isViolation(v: unknown): v is AxeViolation {
  return typeof v === 'object' && v !== null && 'id' in v && 'help' in v && 'nodes' in v;
}
