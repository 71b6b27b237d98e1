// The ceiling for the accept path: a bare Fastify route, in a process of its own like Sanad's, that
// answers 202 with a body the size and shape of Sanad's background answer (no auth, no store).
import Fastify from 'fastify';

const app = Fastify({ logger: false });
const body = {
  id: 'resp_01jz0000000000000000000000',
  object: 'response',
  created_at: 1_800_000_000,
  status: 'queued',
  background: true,
  model: 'tiny',
  output: [],
  output_text: '',
  error: null,
  incomplete_details: null,
  instructions: null,
  max_output_tokens: 1,
  metadata: {},
  temperature: null,
  top_p: null,
  usage: null,
  task_id: 'task_01jz0000000000000000000000',
  sequence_number: 1,
};
app.post('/v1/responses', async (_req, reply) => reply.code(202).header('location', '/v1/tasks/task_01jz0000000000000000000000').send(body));
const address = await app.listen({ host: '127.0.0.1', port: 0 });
process.stdout.write(`${address}\n`);
