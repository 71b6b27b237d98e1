// The conformance suite's service: a real `sanad serve` child on a fresh data dir, with the demo
// model (it answers "OK,demo!" and ends, as a real model does) registered as "demo", and a client
// token as an integrator would have it (responses:write + models:read, not admin).
import { after } from 'node:test';
import { makeClient } from '../api/contract.js';
import { thinkingModelPath } from '../fixtures/tiny-model.js';
import { addDemoModel, addModelFile, prepareDataDir } from '../harness/data-dir.js';
import { startServiceProcess, type ServiceProcess } from '../harness/service-process.js';

export const DEMO = 'demo';
/** The generated thinking model (a Qwen3 to node-llama-cpp), registered beside the demo model. */
export const THINKER = 'thinker';

export interface ClientService {
  service: ServiceProcess;
  dataDir: string;
  adminToken: string;
  /** A paired client's token: what an app built on an SDK holds. */
  token: string;
  baseURL: string;
  /** Starts the service again on the same data dir (after a kill). */
  restart(): Promise<ServiceProcess>;
}

const live = new Set<ServiceProcess>();
after(async () => {
  await Promise.all([...live].map((s) => s.kill()));
});

async function start(dataDir: string, token: string): Promise<ServiceProcess> {
  const service = await startServiceProcess(dataDir, token);
  live.add(service);
  service.child.once('exit', () => live.delete(service));
  return service;
}

export async function startClientService(): Promise<ClientService> {
  // SDKs and polling tests make many calls; rate limiting is not what these tests try.
  const prepared = await prepareDataDir({ requests_per_minute_per_client: 1_000_000 });
  await addDemoModel(prepared.dataDir, DEMO);
  await addModelFile(prepared.dataDir, THINKER, await thinkingModelPath());
  const service = await start(prepared.dataDir, prepared.adminToken);
  const client = await makeClient(service.api, ['responses:write', 'models:read'], 'sdk-app');
  const out: ClientService = {
    service,
    dataDir: prepared.dataDir,
    adminToken: prepared.adminToken,
    token: client.token,
    baseURL: `${service.url}/v1`,
    restart: async () => {
      out.service = await start(prepared.dataDir, prepared.adminToken);
      out.baseURL = `${out.service.url}/v1`;
      return out.service;
    },
  };
  return out;
}
