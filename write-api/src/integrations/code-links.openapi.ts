import { errorAnswer, type RouteSpec } from '@bugtrail/platform';
import { z } from 'zod';

/** /api/integrations (code-links.routes.ts), relative to its mount. */

const tags = ['integrations'];
const linkedAnswer = {
  description: 'Done: the bug numbers the delivery linked code to, and those it closed (a repeat changes nothing)',
  schema: z.object({ linked: z.array(z.number().int()), closed: z.array(z.number().int()) }),
};
const ignored = { description: 'An event kind that links no code (ping, issues, a tag push): nothing done' };
const notConfigured = errorAnswer('The integration is off: its secret is not set');
const payload = z.object({}).passthrough().describe("The code host's webhook payload, as it sends it");
const closing =
  'A commit message, or a request title or body, that names `#42` links it to bug 42 (a number that names no ' +
  'bug is ignored); `fixes`, `fixed`, `fix`, `closes`, `closed`, `close`, `resolves`, `resolved` or `resolve` ' +
  'before `#42` also closes the bug when the commit reaches the default branch or the request is merged. The ' +
  "actor is the user whose email is the commit author's, else the code host by name. Links are events in the " +
  "bug's stream: `code` on the bug, its history, time travel and outgoing webhooks (`bug.updated`) show them.";

export const codeLinkOperations: RouteSpec[] = [
  {
    method: 'post',
    path: '/github',
    summary: "GitHub's push and pull_request webhooks",
    description: `Verified by \`X-Hub-Signature-256\` (HMAC-SHA256 of the body keyed by GITHUB_WEBHOOK_SECRET); the kind is \`X-GitHub-Event\`. Content type JSON or form (\`payload=\`). ${closing}`,
    tags,
    auth: false,
    body: { schema: payload },
    responses: {
      200: linkedAnswer,
      204: ignored,
      400: errorAnswer('"Malformed webhook payload"'),
      401: errorAnswer(
        '"Webhook signature missing or wrong" (a missing or malformed signature before the body is read)',
      ),
      404: notConfigured,
      413: errorAnswer('Past 25 MB'),
      429: errorAnswer('4 payloads are being read already; `Retry-After` says when to try again'),
    },
  },
  {
    method: 'post',
    path: '/gitlab',
    summary: "GitLab's Push Hook and Merge Request Hook",
    description: `Verified by \`X-Gitlab-Token\` equal to GITLAB_WEBHOOK_SECRET (compared in constant time); the kind is \`X-Gitlab-Event\`. ${closing}`,
    tags,
    auth: false,
    body: { schema: payload },
    responses: {
      200: linkedAnswer,
      204: ignored,
      400: errorAnswer('"Malformed webhook payload"'),
      401: errorAnswer('"Webhook token missing or wrong" (checked before the body is read)'),
      404: notConfigured,
      413: errorAnswer('Past 25 MB'),
      429: errorAnswer('4 payloads are being read already; `Retry-After` says when to try again'),
    },
  },
];
