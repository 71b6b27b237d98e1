// Node module hooks (module.register) for the app's process: `electron` resolves to the stand-in,
// everything else as usual. Loaded by register.ts through `node --import`.
import type { ResolveHook } from 'node:module';

const STAND_IN = new URL('./electron.js', import.meta.url).href;

export const resolve: ResolveHook = (specifier, context, next) => (specifier === 'electron' ? { url: STAND_IN, shortCircuit: true } : next(specifier, context));
