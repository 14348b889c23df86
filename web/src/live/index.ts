export { type LiveEvent, runLiveConnection } from './live-connection';
export { LiveIndicator } from './live-indicator';
export { getLiveStatus, type LiveStatus, useLiveStatus } from './live-status';
export { queryKeysForTopic } from './topic-keys';
export { createInvalidator, subscribeLiveEvents, useLiveUpdates } from './use-live-updates';
