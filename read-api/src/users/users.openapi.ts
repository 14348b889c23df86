import { forbiddenAnswer, idParam, notFoundAnswer, type RouteSpec, userDtoSchema } from '@bugtrail/platform';
import { z } from 'zod';

/** The user reads (users.routes.ts), relative to their mounts. */

const tags = ['users'];

/** An admin's team list row: the user with the task counters from the bug counters. */
const teamMember = userDtoSchema.extend({
  /** When they signed up (the team page sorts by it). */
  createdAt: z.string(),
  pendingTasks: z.number().int(),
  inProgressTasks: z.number().int(),
  completedTasks: z.number().int(),
  createdBugs: z.number().int(),
  assignedBugs: z.number().int(),
});

/** GET /profile, mounted at /api/auth. */
export const profileOperations: RouteSpec[] = [
  {
    method: 'get',
    path: '/profile',
    summary: 'The caller',
    tags: ['auth'],
    responses: {
      200: {
        description: 'The caller, with how they want notifications mailed',
        schema: z.object({
          user: userDtoSchema.extend({ preferences: z.object({ email: z.enum(['immediate', 'daily', 'off']) }) }),
        }),
      },
      404: notFoundAnswer,
    },
  },
  {
    method: 'get',
    path: '/mail',
    summary: 'Whether this server mails at all (SMTP_URL set): without it, clients offer no mail choices',
    tags: ['auth'],
    responses: {
      200: { description: 'Whether mail is configured', schema: z.object({ configured: z.boolean() }) },
    },
  },
  {
    method: 'get',
    path: '/signup-policy',
    summary: 'Who may sign up: anyone (open, the default) or only people an admin invited (invitation)',
    tags: ['auth'],
    auth: false,
    responses: {
      200: { description: 'The policy', schema: z.object({ mode: z.enum(['open', 'invitation']) }) },
    },
  },
  {
    method: 'get',
    path: '/invite-codes',
    summary: 'Live admin invite codes (admin): never the code itself',
    tags: ['auth'],
    roles: ['admin'],
    responses: {
      200: {
        description: 'Unused, unrevoked, unexpired codes, newest first',
        schema: z.object({
          codes: z.array(
            z.object({
              _id: z.string(),
              createdBy: z.object({ _id: z.string(), name: z.string() }).nullable(),
              createdAt: z.string(),
              expiresAt: z.string(),
              role: z.enum(['admin', 'tester', 'developer']),
            }),
          ),
        }),
      },
      403: forbiddenAnswer,
    },
  },
];

/** Mounted at /api/users. */
export const usersOperations: RouteSpec[] = [
  {
    method: 'get',
    path: '/',
    summary: 'Team list (admin and auditor: every user with task counters) or directory (others)',
    tags,
    responses: {
      200: { description: 'Bare array', schema: z.array(z.union([teamMember, userDtoSchema])) },
    },
  },
  {
    method: 'get',
    path: '/developers',
    summary: 'Every developer (assign pickers; never an auditor)',
    tags,
    roles: ['admin', 'auditor', 'tester'],
    responses: { 200: { description: 'Bare array', schema: z.array(userDtoSchema) }, 403: forbiddenAnswer },
  },
  {
    method: 'get',
    path: '/{id}',
    summary: 'One user (email only for admins, auditors and the user themself)',
    tags,
    params: idParam,
    responses: { 200: { description: 'The user', schema: userDtoSchema }, 404: notFoundAnswer },
  },
];
