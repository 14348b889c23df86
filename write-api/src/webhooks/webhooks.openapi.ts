import {
  createWebhookBody,
  updateWebhookBody,
  webhookDeliveryDtoSchema,
  webhookDtoSchema,
  webhookEventTypes,
  webhookLimits,
  webhookMessages,
} from '@bugtrail/domain';
import { errorAnswer, invalidAnswer, type RouteSpec } from '@bugtrail/platform';
import { z } from 'zod';

/** /api/webhooks (webhooks.routes.ts), relative to its mount. */

const tags = ['webhooks'];
const admins = ['admin'];
const readers = ['admin', 'auditor'];
const webhookParam = z.object({ id: z.string().describe('The webhook id (`_id`)') });
const deliveryParams = z.object({
  id: z.string().describe('The webhook id'),
  deliveryId: z.string().describe('A delivery id from its log'),
});
const forbidden = errorAnswer(`"${webhookMessages.adminsOnly}"; or an API token, which never manages webhooks`);
const notFound = errorAnswer(`"${webhookMessages.notFound}"`);
const answer = z.object({ webhook: webhookDtoSchema });
const queued = { description: 'Queued: the reactor sends it at once', schema: z.object({ message: z.string() }) };
const fields = {
  url: `http or https, at most ${webhookLimits.urlMax} characters; must not be or resolve to a loopback, private, link-local, unique-local, unspecified or metadata address ("${webhookMessages.urlNotPublic}") unless WEBHOOK_ALLOW_HOSTS lists it`,
  events: `Event types, or ["*"] for all: ${webhookEventTypes.join(', ')}`,
  description: `At most ${webhookLimits.descriptionMax} characters`,
  projects: `Only these projects' bugs: project ids or keys (at most ${webhookLimits.projectsMax}); null or absent: every project`,
};

export const webhookOperations: RouteSpec[] = [
  {
    method: 'post',
    path: '/',
    summary: 'Subscribe a URL to bug events',
    description:
      'Each event is POSTed as `{ type, timestamp, data: { bug, actor, changes, comment } }` with the Standard ' +
      'Webhooks headers `webhook-id` (the event id, the same on every retry), `webhook-timestamp` and ' +
      '`webhook-signature` (`v1,` + base64 HMAC-SHA256 of `{id}.{timestamp}.{body}`, keyed by the secret). At ' +
      `least once, in order per bug; a 2xx within ${webhookLimits.timeoutMs / 1000} s ends a delivery, anything ` +
      `else is retried with exponential backoff, ${webhookLimits.attempts} attempts in all; after ` +
      'WEBHOOK_DISABLE_AFTER events in a row fail the webhook is switched off and admins are notified.',
    tags,
    roles: admins,
    body: { schema: createWebhookBody, fields },
    responses: {
      201: {
        description: 'The webhook and its signing secret (`whsec_…`), shown this once (Cache-Control: no-store)',
        schema: z.object({ webhook: webhookDtoSchema, secret: z.string() }),
      },
      400: invalidAnswer,
      403: forbidden,
      404: errorAnswer(`"${webhookMessages.projectNotFound}": \`projects\` names no project`),
      409: errorAnswer(`"${webhookMessages.limitReached}"`),
    },
  },
  {
    method: 'get',
    path: '/',
    summary: 'The webhooks, newest first (never their secrets)',
    tags,
    roles: readers,
    responses: {
      200: { description: 'Every webhook', schema: z.object({ webhooks: z.array(webhookDtoSchema) }) },
      403: forbidden,
    },
  },
  {
    method: 'get',
    path: '/{id}',
    summary: 'One webhook',
    tags,
    roles: readers,
    params: webhookParam,
    responses: { 200: { description: 'The webhook', schema: answer }, 403: forbidden, 404: notFound },
  },
  {
    method: 'put',
    path: '/{id}',
    summary: 'Change a webhook, or switch it off and on',
    description: 'Switching it on again starts its count of failed events afresh and sends what waited.',
    tags,
    roles: admins,
    params: webhookParam,
    body: { schema: updateWebhookBody, fields: { ...fields, active: 'true or false' } },
    responses: {
      200: { description: 'The webhook as it is now', schema: answer },
      400: invalidAnswer,
      403: forbidden,
      404: errorAnswer(`"${webhookMessages.notFound}", or "${webhookMessages.projectNotFound}" (\`projects\`)`),
    },
  },
  {
    method: 'delete',
    path: '/{id}',
    summary: 'Delete a webhook, with its queue and its log',
    tags,
    roles: admins,
    params: webhookParam,
    responses: { 204: { description: 'Deleted' }, 403: forbidden, 404: notFound },
  },
  {
    method: 'get',
    path: '/{id}/deliveries',
    summary: `Its delivery log: every attempt, newest first (at most ${webhookLimits.deliveriesListed})`,
    description: '`status` is the receiver’s HTTP status, or null with `error` when it gave none.',
    tags,
    roles: readers,
    params: webhookParam,
    responses: {
      200: { description: 'The log', schema: z.object({ deliveries: z.array(webhookDeliveryDtoSchema) }) },
      403: forbidden,
      404: notFound,
    },
  },
  {
    method: 'post',
    path: '/{id}/deliveries/{deliveryId}/redeliver',
    summary: 'Send a logged message again (same webhook-id, fresh timestamp and signature)',
    tags,
    roles: admins,
    params: deliveryParams,
    responses: {
      202: queued,
      403: forbidden,
      404: errorAnswer(`"${webhookMessages.notFound}" or "${webhookMessages.deliveryNotFound}"`),
    },
  },
  {
    method: 'post',
    path: '/{id}/ping',
    summary: 'Send `{ type: "ping" }`, signed like every delivery, to check the receiver',
    tags,
    roles: admins,
    params: webhookParam,
    responses: { 202: queued, 403: forbidden, 404: notFound },
  },
];
