import { z } from 'zod';
import { bugStatuses } from '../bugs/bug-vocabulary.js';
import { statusFromInput } from '../bugs/status.js';
import {
  type ActionType,
  type AutomationAction,
  type AutomationCondition,
  actionTypes,
  automationLimits,
  automationMessages,
  automationTriggerNames,
  conditionOps,
  notifyRoles,
} from './automation-vocabulary.js';

/**
 * Automation rules as events and as the API reads them (api.md "Automation rules", issue 38).
 * A rule is one stream (`automation-{id}`): created, changed (enabled or not, its words),
 * paused by the reactor after failures in a row, deleted.
 */

const id = z.string().min(1).max(100);
const trimmed = (max: number, message: string) => z.string({ error: message }).trim().min(1, message).max(max, message);

const scalar = z.union([z.string().trim().min(1).max(automationLimits.valueMax), z.number().finite()]);
const conditionValue = z.union([scalar, z.array(scalar).min(1).max(automationLimits.inValues)], {
  error: 'value must be a value or a list of values',
});

export const conditionSchema = z.object({
  field: z.string({ error: 'field is required' }).trim().min(1, 'field is required').max(60),
  op: z.enum(conditionOps, {
    error: (issue) =>
      issue.input === undefined ? 'op is required' : automationMessages.unknownOp(String(issue.input)),
  }),
  value: conditionValue,
});

const userIds = z.array(id).min(1, 'userIds must name someone').max(automationLimits.userIds);

/** Each action's own fields, by its type. */
const actionSchemas = {
  set_field: z.object({
    type: z.literal('set_field'),
    field: z.string().trim().min(1).max(60),
    value: z.union([z.string().max(automationLimits.valueMax), z.number().finite(), z.array(z.string()), z.null()]),
  }),
  set_status: z.object({
    type: z.literal('set_status'),
    status: z.unknown().transform((value, ctx) => {
      const status = statusFromInput(value);
      if (!status) {
        ctx.addIssue({ code: 'custom', message: automationMessages.statusInvalid });
        return z.NEVER;
      }
      return status;
    }),
  }),
  assign: z.object({ type: z.literal('assign'), userIds }),
  add_label: z.object({ type: z.literal('add_label'), labelId: id }),
  remove_label: z.object({ type: z.literal('remove_label'), labelId: id }),
  comment: z.object({
    type: z.literal('comment'),
    body: z
      .string({ error: automationMessages.commentRequired })
      .trim()
      .min(1, automationMessages.commentRequired)
      .max(automationLimits.commentMax),
  }),
  notify: z
    .object({ type: z.literal('notify'), userIds: userIds.optional(), role: z.enum(notifyRoles).optional() })
    .refine((a) => a.userIds !== undefined || a.role !== undefined, { error: automationMessages.notifyNeedsSomeone }),
  set_milestone: z.object({ type: z.literal('set_milestone'), milestoneId: id.nullable() }),
} as const satisfies Record<ActionType, z.ZodType>;

/** One action: its type first (an unknown one is named), then that type's fields. */
const actionSchema = z.looseObject({ type: z.string({ error: 'type is required' }) }).transform((raw, ctx) => {
  const schema = actionSchemas[raw.type as ActionType];
  if (!(actionTypes as readonly string[]).includes(raw.type) || !schema) {
    ctx.addIssue({ code: 'custom', message: automationMessages.unknownAction(raw.type), path: ['type'] });
    return z.NEVER;
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) ctx.addIssue({ code: 'custom', message: issue.message, path: issue.path });
    return z.NEVER;
  }
  return parsed.data as AutomationAction;
});

const whenSchema = z.object({
  event: z
    .string({ error: 'when.event is required' })
    .refine((event) => (automationTriggerNames as readonly string[]).includes(event), {
      error: (issue) => automationMessages.unknownEvent(String(issue.input)),
    }),
  conditions: z
    .array(conditionSchema)
    .max(automationLimits.conditions, automationMessages.tooManyConditions)
    .default([]),
});
const thenSchema = z
  .array(actionSchema, { error: automationMessages.actionsRequired })
  .min(1, automationMessages.actionsRequired)
  .max(automationLimits.actions, automationMessages.tooManyActions);

const nameField = trimmed(automationLimits.nameMax, automationMessages.nameRequired).refine(
  (name) => name.length <= automationLimits.nameMax,
  automationMessages.nameTooLong,
);

/** `POST /api/automations`. */
export const createAutomationBody = z.object({
  name: nameField,
  projectId: id.nullish(),
  enabled: z.boolean().default(true),
  when: whenSchema,
  // biome-ignore lint/suspicious/noThenProperty: api.md names it `then`; an array is never a thenable, and the rule stores it as `actions`
  then: thenSchema,
});
/** `PATCH /api/automations/{id}`: only what is sent changes. */
export const updateAutomationBody = z.object({
  name: nameField.optional(),
  enabled: z.boolean().optional(),
  when: whenSchema.optional(),
  // biome-ignore lint/suspicious/noThenProperty: api.md names it `then`; an array is never a thenable, and the rule stores it as `actions`
  then: thenSchema.optional(),
});
/** The stretch of history a rule is replayed over, [from, to): `POST /api/automations/{id}/simulate`. */
const windowFields = {
  from: z.coerce.date({ error: 'from must be a date' }).describe('Start of the stretch (inclusive)'),
  to: z.coerce.date({ error: 'to must be a date' }).describe('End of the stretch (exclusive)'),
};
const ordered = <T extends { from: Date; to: Date }>(w: T) => w.from < w.to;
export const simulateAutomationBody = z
  .object(windowFields)
  .refine(ordered, { error: automationMessages.simulateRange, path: ['from'] });
/** A rule not saved yet (the editor's), and the stretch to replay it over: `POST /api/automations/simulate`. */
export const simulateDraftBody = createAutomationBody
  .extend(windowFields)
  .refine(ordered, { error: automationMessages.simulateRange, path: ['from'] });

// The stored shapes, checked as the store checks every event.
export const storedCondition = z.object({ field: z.string(), op: z.enum(conditionOps), value: conditionValue });
const storedAction = z.looseObject({ type: z.enum(actionTypes) });
const storedWhen = z.object({
  event: z.enum(automationTriggerNames as [string, ...string[]]),
  conditions: z.array(storedCondition),
});

export const automationEventSchemas = {
  AutomationCreated: {
    version: 1,
    data: z.object({
      automationId: id,
      name: z.string().min(1).max(automationLimits.nameMax),
      projectId: id.nullable(),
      enabled: z.boolean(),
      when: storedWhen,
      actions: z.array(storedAction).min(1).max(automationLimits.actions),
    }),
  },
  /** Only what changed is in it. */
  AutomationChanged: {
    version: 1,
    data: z.object({
      automationId: id,
      name: z.string().min(1).max(automationLimits.nameMax).optional(),
      enabled: z.boolean().optional(),
      when: storedWhen.optional(),
      actions: z.array(storedAction).min(1).max(automationLimits.actions).optional(),
    }),
  },
  /**
   * The reactor's, once per triggering event the rule matched: what each action did to the bug
   * (`done`: appended a change; `unchanged`: the bug was already so; `failed`: refused, and why).
   */
  AutomationRan: {
    version: 1,
    data: z.object({
      automationId: id,
      /** The rule's name when it ran (its notifications say it). */
      name: z.string().max(automationLimits.nameMax).optional(),
      triggerEventId: id,
      trigger: z.enum(automationTriggerNames as [string, ...string[]]),
      bugId: id,
      /** When the trigger happened. */
      at: z.string(),
      outcomes: z
        .array(
          z.object({
            type: z.enum(actionTypes),
            outcome: z.enum(['done', 'unchanged', 'failed']),
            message: z.string().max(1000).optional(),
            /** A `notify` action's people and role: the notifications projection tells them. */
            userIds: z.array(id).max(automationLimits.userIds).optional(),
            role: z.enum(notifyRoles).optional(),
          }),
        )
        .max(automationLimits.actions),
    }),
  },
  /** The reactor's: it kept failing (`failures` in a row); enabling it again starts afresh. */
  AutomationPaused: {
    version: 1,
    data: z.object({ automationId: id, reason: z.string().max(1000), failures: z.number().int().min(1) }),
  },
  AutomationDeleted: { version: 1, data: z.object({ automationId: id, name: z.string() }) },
} as const;

type Schemas = typeof automationEventSchemas;
export type AutomationEventData<Type extends keyof Schemas> = z.infer<Schemas[Type]['data']>;

/** The rule as stored and answered: its trigger and conditions, its actions. */
export type AutomationWhen = Readonly<{ event: string; conditions: readonly AutomationCondition[] }>;

export const automationStatuses = bugStatuses;
