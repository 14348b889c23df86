import type { z } from 'zod';
import type { automationEventSchemas } from './automations/automation.schemas.js';
import type { bugEventSchemas } from './bugs/bug.schemas.js';
import type { bugCommentEventSchemas } from './bugs/comments.js';
import type { dueEventSchemas } from './bugs/due.js';
import type { chatEventSchemas } from './chats/chat.schemas.js';
import { isKnownEventType } from './core/registry.js';
import type { labelEventSchemas } from './labels/label.schemas.js';
import type { milestoneEventSchemas } from './milestones/milestone.schemas.js';
import type { notificationEventSchemas } from './notifications/notifications.js';
import type { defaultProjectEventSchemas } from './projects/default-project.js';
import type { projectEventSchemas } from './projects/project.schemas.js';
import type { slaBreachEventSchemas, slaEventSchemas } from './sla/sla.schemas.js';
import type { userEventSchemas } from './users/index.js';
import type { viewEventSchemas } from './views/view.schemas.js';
import type { webhookEventSchemas } from './webhooks/webhook.schemas.js';

/**
 * Typed events at the boundary (issue 34). Every event type the store may hold, with the type of
 * its data, read off the schema maps each feature registers (the store checks each event against
 * them before appending it). Projections and reactors narrow a stored event with `isEvent` instead
 * of casting its data: a renamed field or a removed event type is then a compile error where it is
 * read, not a silent `undefined`.
 */
type DataOf<Schemas> = {
  -readonly [Type in keyof Schemas]: Schemas[Type] extends { data: infer Data extends z.ZodType }
    ? z.output<Data>
    : never;
};

export type EventDataMap = DataOf<typeof automationEventSchemas> &
  DataOf<typeof bugEventSchemas> &
  DataOf<typeof bugCommentEventSchemas> &
  DataOf<typeof dueEventSchemas> &
  DataOf<typeof chatEventSchemas> &
  DataOf<typeof notificationEventSchemas> &
  DataOf<typeof projectEventSchemas> &
  DataOf<typeof labelEventSchemas> &
  DataOf<typeof milestoneEventSchemas> &
  DataOf<typeof defaultProjectEventSchemas> &
  DataOf<typeof slaEventSchemas> &
  DataOf<typeof slaBreachEventSchemas> &
  DataOf<typeof userEventSchemas> &
  DataOf<typeof viewEventSchemas> &
  DataOf<typeof webhookEventSchemas>;

export type EventType = keyof EventDataMap & string;
export type EventData<Type extends EventType> = EventDataMap[Type];

/** `Stored` (a recorded event of any shape) narrowed to one of `Types`, data included. */
export type EventOf<Stored extends { type: string; data: unknown }, Types extends EventType> = {
  [Type in Types]: Omit<Stored, 'type' | 'data'> & { readonly type: Type; readonly data: EventData<Type> };
}[Types];

/**
 * True when `event` is one of `types`; narrows its `type` and `data` (a union over several types
 * discriminates on `type`).
 */
export function isEvent<Stored extends { type: string; data: unknown }, Types extends EventType>(
  event: Stored,
  ...types: Types[]
): event is Stored & EventOf<Stored, Types> {
  return (types as string[]).includes(event.type);
}

/**
 * `event` as one of the typed events, or undefined for a type no feature registers: a `switch`
 * on its `type` then narrows `data` in each case.
 */
export function knownEvent<Stored extends { type: string; data: unknown }>(
  event: Stored,
): EventOf<Stored, EventType> | undefined {
  return isKnown(event) ? event : undefined;
}

/** The store checked every event against its type's schema before appending it. */
function isKnown<Stored extends { type: string; data: unknown }>(
  event: Stored,
): event is Stored & EventOf<Stored, EventType> {
  return isKnownEventType(event.type);
}

/** The events of `types` among `events`, typed (the order kept). */
export function eventsOf<Stored extends { type: string; data: unknown }, Types extends EventType>(
  events: readonly Stored[],
  ...types: Types[]
): EventOf<Stored, Types>[] {
  const wanted = new Set<string>(types);
  return events.filter((event): event is Stored & EventOf<Stored, Types> => wanted.has(event.type));
}
