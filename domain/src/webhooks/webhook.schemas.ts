import { z } from 'zod';
import type { Command, Decider, Event } from '../core/event.js';
import { webhookEventTypes, webhookLimits, webhookMessages } from './webhook-vocabulary.js';

const url = z
  .string({ error: webhookMessages.urlRequired })
  .trim()
  .min(1, { error: webhookMessages.urlRequired, abort: true })
  .max(webhookLimits.urlMax, { error: webhookMessages.urlTooLong, abort: true })
  .refine((text) => {
    try {
      const parsed = new URL(text);
      return (parsed.protocol === 'http:' || parsed.protocol === 'https:') && parsed.hostname !== '';
    } catch {
      return false;
    }
  }, webhookMessages.urlInvalid);
const events = z
  .array(z.string({ error: webhookMessages.eventsInvalid }), { error: webhookMessages.eventsRequired })
  .min(1, { error: webhookMessages.eventsRequired, abort: true })
  .max(webhookEventTypes.length + 1, webhookMessages.eventsInvalid)
  .refine(
    (list) => list.every((type) => type === '*' || (webhookEventTypes as readonly string[]).includes(type)),
    webhookMessages.eventsInvalid,
  )
  .transform((list) => (list.includes('*') ? ['*'] : [...new Set(list)]));
const description = z
  .string({ error: webhookMessages.descriptionTooLong })
  .trim()
  .max(webhookLimits.descriptionMax, webhookMessages.descriptionTooLong);

/** Only these projects' bugs (ids or keys; null or absent: every project's). */
const projects = z
  .array(z.string({ error: webhookMessages.projectsInvalid }).trim().min(1).max(100), {
    error: webhookMessages.projectsInvalid,
  })
  .max(webhookLimits.projectsMax, webhookMessages.projectsInvalid)
  .nullable();

/** `POST /api/webhooks`. */
export const createWebhookBody = z.object({
  url,
  events,
  description: description.optional(),
  projects: projects.optional(),
});
/** `PUT /api/webhooks/{id}`: any of the fields. */
export const updateWebhookBody = z
  .object({
    url: url.optional(),
    events: events.optional(),
    description: description.optional(),
    projects: projects.optional(),
    active: z.boolean({ error: webhookMessages.activeInvalid }).optional(),
  })
  .refine((body) => Object.values(body).some((value) => value !== undefined), webhookMessages.nothingToChange);

export const webhookDtoSchema = z.object({
  _id: z.string(),
  url: z.string(),
  events: z.array(z.string()),
  description: z.string(),
  projects: z.array(z.string()).nullable().describe('Only these projects’ bugs (ids); null: every project'),
  active: z.boolean(),
  createdAt: z.string(),
});
export const webhookDeliveryDtoSchema = z.object({
  _id: z.string(),
  eventId: z.string(),
  type: z.string(),
  attempt: z.number(),
  status: z.number().nullable(),
  error: z.string().nullable(),
  durationMs: z.number(),
  at: z.string(),
});

/**
 * A webhook switched off because its receiver kept failing (api.md): an event on
 * `webhook-{id}`, so the admins are notified and the audit trail shows it.
 */
export const webhookDisabledData = z.object({
  webhookId: z.string().min(1),
  url: z.string().min(1).max(webhookLimits.urlMax),
  failedEvents: z.number().int().positive(),
});
export type WebhookDisabledData = z.infer<typeof webhookDisabledData>;
export type WebhookDisabled = Event<'WebhookDisabled', WebhookDisabledData>;
export const webhookEventSchemas = { WebhookDisabled: { version: 1, data: webhookDisabledData } } as const;

export type DisableWebhook = Command<'DisableWebhook', WebhookDisabledData>;

/** The system switches a failing webhook off; the stream only records that. */
export const webhookDecider: Decider<null, DisableWebhook, WebhookDisabled> = {
  initialState: () => null,
  evolve: (state) => state,
  decide: (command) => [{ type: 'WebhookDisabled', data: command.data }],
};
