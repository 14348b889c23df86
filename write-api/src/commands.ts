import { setSignupPolicy } from './auth/signup-policy.commands.js';
import { automationCommands } from './automations/automations.commands.js';
import { bugCommands } from './bugs/bugs.commands.js';
import { commentCommands } from './bugs/comments.commands.js';
import { planningCommands } from './bugs/planning.commands.js';
import { worklogCommands } from './bugs/worklog.commands.js';
import { chatCommands } from './chats/chats.commands.js';
import type { AnyCommandDeclaration } from './command.js';
import { labelCommands } from './labels/labels.commands.js';
import { milestoneCommands, projectMilestoneCommands } from './milestones/milestones.commands.js';
import { notificationCommands } from './notifications/notifications.commands.js';
import { fieldCommands } from './projects/fields.commands.js';
import { projectCommands } from './projects/projects.commands.js';
import { setBugState, setProjectStates } from './projects/states.commands.js';
import { slaCommands } from './sla/sla.commands.js';
import { userCommands } from './users/users.commands.js';
import { viewCommands } from './views/views.commands.js';

/** Where one list of declarations is mounted. */
export type CommandMount = Readonly<{
  base: string;
  commands: readonly AnyCommandDeclaration[];
  /** For a list mounted twice: the second mount's operation ids (mountOperations), unique in the document. */
  operationIdPrefix?: string;
}>;

/**
 * Every command declared with `defineCommand`, by where it is mounted: app.ts serves these
 * and operations.ts documents them, from this one list. A new command is added to its
 * feature's list here (issue 34; the older routers move here one feature at a time).
 */
export const declaredCommands: readonly CommandMount[] = [
  { base: '/api/auth', commands: [setSignupPolicy] },
  { base: '/api/users', commands: userCommands },
  {
    base: '/api/bugs',
    commands: [...bugCommands, ...planningCommands, setBugState, ...worklogCommands, ...commentCommands],
  },
  { base: '/api/labels', commands: labelCommands },
  { base: '/api/views', commands: viewCommands },
  {
    base: '/api/projects',
    commands: [...projectCommands, ...projectMilestoneCommands, ...fieldCommands, setProjectStates],
  },
  { base: '/api/milestones', commands: milestoneCommands },
  { base: '/api/notifications', commands: notificationCommands },
  { base: '/api/automations', commands: automationCommands },
  { base: '/api/sla', commands: slaCommands },
  { base: '/api/chats', commands: chatCommands },
  // The spec's chat-server paths: the same commands, as the chat router is mounted at both.
  { base: '/chats', commands: chatCommands, operationIdPrefix: 'chatServer' },
];
