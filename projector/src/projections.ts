import type { Projection } from './runtime/projection.js';
import { usersProjection } from './users/users.projection.js';

/** Every read model the projector maintains. Add a feature's projection here. */
export const allProjections: readonly Projection[] = [usersProjection];
