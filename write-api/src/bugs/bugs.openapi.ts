import type { RouteSpec } from '@bugtrail/platform';
import { bugFileOperations } from './bug-files.openapi.js';

/** The bug routes that are not declared commands (bugs.routes.ts), relative to their mount at /api/bugs. */
export const bugOperations: RouteSpec[] = [...bugFileOperations];
