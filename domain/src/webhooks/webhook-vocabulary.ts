/**
 * Outgoing webhooks (api.md "Integrations"): the event types a subscription may name, the
 * limits and the messages the server and the web app share. No zod here (vocabulary.ts).
 */
export const webhookEventTypes = [
  'bug.reported',
  'bug.updated',
  'bug.status_changed',
  'bug.assigned',
  'bug.checklist_changed',
  'bug.deleted',
  'comment.created',
] as const;
export type WebhookEventType = (typeof webhookEventTypes)[number];

/** NOTIFY channel that wakes the webhook reactor (a ping, a redelivery, a webhook switched on). */
export const WEBHOOK_WAKE_CHANNEL = 'bugtrail_webhooks';

/** What a signing secret starts with (Standard Webhooks): `whsec_` + base64 of 32 random bytes. */
export const WEBHOOK_SECRET_PREFIX = 'whsec_';

export const webhookLimits = {
  urlMax: 2048,
  descriptionMax: 500,
  perInstance: 100,
  /** Attempts per event before it counts as failed (api.md). */
  attempts: 8,
  /** A 2xx within this ends a delivery. */
  timeoutMs: 10_000,
  /** How much of a receiver's answer is kept in the log. */
  responseBytesKept: 1024,
  deliveriesListed: 100,
  /** Projects one webhook may be narrowed to. */
  projectsMax: 50,
} as const;

export const webhookMessages = {
  urlRequired: 'Please enter the webhook URL',
  urlInvalid: 'Webhook URL must be an http or https URL',
  urlTooLong: `Webhook URL cannot exceed ${webhookLimits.urlMax} characters`,
  urlNotPublic: 'Webhook URL must be a public address',
  eventsRequired: 'Pick at least one event type, or "*" for all',
  eventsInvalid: `Events must be "*" or among ${webhookEventTypes.join(', ')}`,
  descriptionTooLong: `Description cannot exceed ${webhookLimits.descriptionMax} characters`,
  activeInvalid: 'active must be true or false',
  nothingToChange: 'Send url, events, description, projects or active',
  projectsInvalid: 'projects must be a list of project ids or keys, or null for every project',
  projectNotFound: 'Project not found',
  limitReached: `At most ${webhookLimits.perInstance} webhooks`,
  notFound: 'Webhook not found',
  deliveryNotFound: 'Delivery not found',
  adminsOnly: 'Only an admin can manage webhooks',
} as const;

export type WebhookDto = {
  _id: string;
  url: string;
  events: string[];
  description: string;
  /** Only these projects' bugs (ids); null: every project's (issue 35). */
  projects: string[] | null;
  active: boolean;
  createdAt: string;
};

export type WebhookDeliveryDto = {
  _id: string;
  eventId: string;
  type: string;
  attempt: number;
  /** The receiver's HTTP status, or null when there was none (then `error` says why). */
  status: number | null;
  error: string | null;
  durationMs: number;
  at: string;
};
