// `node --import <this file> dist/electron/main.js`: the app's main process with the stand-in
// Electron in place of the real one. Synchronous hooks (module.registerHooks): they apply to
// require() as well as import, so a CommonJS dependency (electron-updater) gets the stand-in too.
import { registerHooks } from 'node:module';

const STAND_IN = new URL('./electron.js', import.meta.url).href;

registerHooks({
  resolve: (specifier, context, next) => (specifier === 'electron' ? { url: STAND_IN, format: 'module', shortCircuit: true } : next(specifier, context)),
});
