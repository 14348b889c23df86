export { createReadApi, defaultWebDir, isReadApiPost, type ReadApi } from './app.js';
export { bugAt, bugHistory } from './bugs/history.js';
export type { ReadApiDeps } from './deps.js';
export { readApiOperations } from './operations.js';
export { xlsxResponse } from './reports/xlsx.js';
