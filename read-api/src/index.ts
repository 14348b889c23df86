export { createReadApi, defaultWebDir } from './app.js';
export type { ReadApiDeps } from './deps.js';
