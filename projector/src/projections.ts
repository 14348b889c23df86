import { automationsProjection } from './automations/automations.projection.js';
import { bugsProjection } from './bugs/bugs.projection.js';
import { chatsProjection } from './chats/chats.projection.js';
import { commentsProjection } from './comments/comments.projection.js';
import { flowProjection } from './flow/flow.projection.js';
import { invitesProjection } from './invites/invites.projection.js';
import { milestonesProjection } from './milestones/milestones.projection.js';
import { notificationsProjection } from './notifications/notifications.projection.js';
import { projectsProjection } from './projects/projects.projection.js';
import type { Projection } from './runtime/projection.js';
import { triageProjection } from './triage/triage.projection.js';
import { usersProjection } from './users/users.projection.js';
import { viewsProjection } from './views/views.projection.js';
import { worklogProjection } from './worklog/worklog.projection.js';

/** Every read model the projector maintains. Add a feature's projection here. */
export const allProjections: readonly Projection[] = [
  usersProjection,
  bugsProjection,
  chatsProjection,
  flowProjection,
  viewsProjection,
  invitesProjection,
  commentsProjection,
  notificationsProjection,
  triageProjection,
  projectsProjection,
  milestonesProjection,
  worklogProjection,
  automationsProjection,
];
