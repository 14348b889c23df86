export * from './errors.js';
export * from './event.js';
export * from './persistent-map.js';
export * from './registry.js';
export * from './streams.js';
