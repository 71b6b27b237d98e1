// The official `openai` Python SDK against a real `sanad serve`, where the machine has it: strict
// typed clients validate the whole response object (pydantic), so a missing field fails here.
// Debian has no package of it and only the npm registry is reachable on these machines, so on
// them this test skips and says so.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { TINY_MODEL_ANSWER } from '../../src/demo/tiny-model.js';
import { DEMO, startClientService } from './client-kit.js';

const SCRIPT = `
import json, os, sys
from openai import OpenAI
from openai.types.responses import Response
c = OpenAI(base_url=os.environ["BASE"], api_key=os.environ["TOKEN"])
r = c.responses.create(model=os.environ["MODEL"], input="Hello")
Response.model_validate(r.model_dump())
with c.responses.stream(model=os.environ["MODEL"], input="Stream") as s:
    final = s.get_final_response()
n = c.responses.create(model=os.environ["MODEL"], input="Next", previous_response_id=r.id)
print(json.dumps({"text": r.output_text, "streamed": final.output_text, "previous": n.previous_response_id, "first": r.id}))
`;

const python = spawnSync('python3', ['-c', 'import openai'], { encoding: 'utf8' });
const available = python.status === 0;

test(
  'the Python SDK: create, the stream helper, previous_response_id, and pydantic validates the object',
  { skip: available ? false : 'python3 has no openai package here (Debian ships none, and PyPI is not reachable)' },
  async () => {
    const svc = await startClientService();
    const run = spawnSync('python3', ['-c', SCRIPT], { encoding: 'utf8', env: { ...process.env, BASE: svc.baseURL, TOKEN: svc.token, MODEL: DEMO } });
    assert.equal(run.status, 0, run.stderr);
    const out: unknown = JSON.parse(run.stdout.trim().split('\n').at(-1) ?? '{}');
    const first: unknown = Reflect.get(Object(out), 'first');
    assert.equal(typeof first, 'string');
    assert.deepEqual(out, { text: TINY_MODEL_ANSWER, streamed: TINY_MODEL_ANSWER, previous: first, first });
  },
);
