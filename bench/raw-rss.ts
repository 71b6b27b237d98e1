// Run as its own process by bench/engine-speed.ts: raw node-llama-cpp holding a model with the
// context Sanad gives it (8192 tokens × 4 sequences), after 4 sequences generated; prints its RSS.
import { GeneralChatWrapper, getLlama, LlamaChat, LlamaLogLevel } from 'node-llama-cpp';

const [modelPath, contextSize, sequences] = [process.argv[2] ?? '', Number(process.argv[3]), Number(process.argv[4])];
const llama = await getLlama({ gpu: false, build: 'never', maxThreads: 1, logLevel: LlamaLogLevel.error });
const model = await llama.loadModel({ modelPath });
const context = await model.createContext({ contextSize, sequences });
await Promise.all(
  Array.from({ length: sequences }, (_, i) =>
    new LlamaChat({ contextSequence: context.getSequence(), chatWrapper: new GeneralChatWrapper() }).generateResponse(
      [
        { type: 'user', text: `Hello from client ${i}` },
        { type: 'model', response: [] },
      ],
      { maxTokens: 32 },
    ),
  ),
);
process.stdout.write(String(process.memoryUsage().rss));
process.exit(0);
