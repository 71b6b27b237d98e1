// Every parameter of POST /v1/responses is in the contract's list as honoured, echoed or refused,
// the schema knows exactly those, and docs/api.md's parameter table names each one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CHAT_PARAMETERS, createChatCompletionBody } from '../../src/contract/chat-completions.js';
import { createResponseBody, PARAMETERS } from '../../src/contract/responses.js';
import { CHECKED_FORMATS, SCHEMA_KEYWORDS } from '../../src/contract/json-schema.js';

const docs = readFileSync(fileURLToPath(new URL('../../../docs/api.md', import.meta.url)), 'utf8');

test('the schema takes exactly the listed parameters (context_management is refused as unknown)', () => {
  const listed = new Set<string>([...PARAMETERS.honoured, ...PARAMETERS.echoed, ...PARAMETERS.refused]);
  const known = Object.keys(createResponseBody.shape);
  for (const k of known) assert.ok(listed.has(k), `${k} is in the schema but not in PARAMETERS`);
  for (const k of listed) if (k !== 'context_management') assert.ok(known.includes(k), `${k} is listed but the schema does not know it`);
});

test('docs/api.md names every parameter in its table', () => {
  const table = docs.slice(docs.indexOf('### Parameters of `POST /v1/responses`'), docs.indexOf('## Conversations'));
  assert.ok(table.length > 100, 'the parameter table is missing');
  for (const k of [...PARAMETERS.honoured, ...PARAMETERS.echoed, ...PARAMETERS.refused])
    assert.ok(table.includes(`\`${k}\``), `docs/api.md's table does not name ${k}`);
});

test('Chat Completions: the schema takes exactly the listed parameters, and docs/api.md names each', () => {
  const listed = new Set<string>([...CHAT_PARAMETERS.honoured, ...CHAT_PARAMETERS.echoed, ...CHAT_PARAMETERS.refused]);
  const known = Object.keys(createChatCompletionBody.shape);
  for (const k of known) assert.ok(listed.has(k), `${k} is in the schema but not in CHAT_PARAMETERS`);
  for (const k of listed) assert.ok(known.includes(k), `${k} is listed but the schema does not know it`);
  const start = docs.indexOf('### Parameters of `POST /v1/chat/completions`');
  const table = docs.slice(start, docs.indexOf('\n## ', start));
  assert.ok(start > 0 && table.length > 100, 'the chat parameter table is missing');
  for (const k of listed) assert.ok(table.includes(`\`${k}\``), `docs/api.md's chat table does not name ${k}`);
});

test("docs/api.md's JSON Schema table puts every keyword in the column the schema reader does", () => {
  const start = docs.indexOf('| keyword | enforced while generating | checked after | refused |');
  const table = docs.slice(start, docs.indexOf('\n\n', start));
  assert.ok(start > 0, 'the keyword table is missing');
  const rows = table.split('\n').slice(2);
  const rowOf = (k: string): string[] => {
    const row = rows.find((r) => (r.split('|')[1] ?? '').includes(`\`${k}\``));
    assert.ok(row, `the keyword table does not name ${k}`);
    return row.split('|').map((c) => c.trim());
  };
  // Cells: ['', keyword, enforced, checked, refused, ''].
  for (const k of SCHEMA_KEYWORDS.enforced) if (k !== 'format') assert.match(rowOf(k)[2] ?? '', /yes/, `${k} is enforced while generating`);
  for (const k of SCHEMA_KEYWORDS.checked) if (k !== 'format') assert.match(rowOf(k)[3] ?? '', /yes/, `${k} is checked after`);
  for (const k of SCHEMA_KEYWORDS.ignored) assert.match(rowOf(k)[2] ?? '', /ignored/, `${k} is ignored`);
  for (const k of SCHEMA_KEYWORDS.refused) assert.match(rowOf(k)[4] ?? '', /yes/, `${k} is refused`);
  for (const f of CHECKED_FORMATS) assert.ok(table.includes(`\`${f}\``), `the table names the format ${f}`);
});
