import { signupPolicyDecider, streams } from '@bugtrail/domain';
import { forbiddenAnswer, invalidAnswer } from '@bugtrail/platform';
import { z } from 'zod';
import { defineCommand } from '../command.js';
import { positionHeaders } from '../commands.openapi.js';
import { signupPolicyBody } from './auth.routes.js';

/** Who may sign up (issue 40): an admin sets open or invitation; each change is an event. */
export const setSignupPolicy = defineCommand({
  method: 'put',
  path: '/signup-policy',
  summary: 'Set who may sign up: anyone (open) or only people an admin invited (invitation)',
  tags: ['auth'],
  roles: ['admin'],
  body: { schema: signupPolicyBody, fields: { mode: 'open or invitation' } },
  stream: () => streams.signupPolicy(),
  decider: signupPolicyDecider,
  command: ({ body }) => ({ type: 'SetSignupPolicy', data: { mode: body.mode } }),
  policy: { retryOnConflict: true },
  answer: (handled) => ({ status: 200, body: { mode: handled.state.mode } }),
  responses: {
    200: {
      description: 'The policy now',
      schema: z.object({ mode: z.enum(['open', 'invitation']) }),
      headers: positionHeaders,
    },
    400: invalidAnswer,
    403: forbiddenAnswer,
  },
});
