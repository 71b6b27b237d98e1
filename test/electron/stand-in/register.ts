// `node --import <this file> dist/electron/main.js`: the app's main process with the stand-in
// Electron (hooks.ts) in place of the real one.
import { register } from 'node:module';

register('./hooks.js', import.meta.url);
