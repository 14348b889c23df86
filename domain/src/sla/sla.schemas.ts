import { z } from 'zod';
import { conditionSchema, storedCondition } from '../automations/automation.schemas.js';
import type { AutomationCondition } from '../automations/automation-vocabulary.js';
import { parseDuration, slaLimits, slaMessages, slaTargets } from './sla-vocabulary.js';

/**
 * SLA policies as events and as the API reads them (api.md "Automation rules", issue 38). A
 * policy is one stream (`sla-{id}`): created, changed, deleted. A breach is an event of the
 * bug's stream (`BugSlaBreached`), appended once per target and due time by the clock.
 */

const id = z.string().min(1).max(100);

/** `4h` → seconds, with the field's name in the refusal; null clears the target (on a change). */
const duration = (field: string) =>
  z.unknown().transform((value, ctx) => {
    const seconds = typeof value === 'string' ? parseDuration(value) : null;
    if (seconds === null) {
      ctx.addIssue({ code: 'custom', message: slaMessages.duration(field) });
      return z.NEVER;
    }
    if (seconds > slaLimits.maxSeconds) {
      ctx.addIssue({ code: 'custom', message: slaMessages.durationTooLong(field) });
      return z.NEVER;
    }
    return seconds;
  });

const nameField = z
  .string({ error: slaMessages.nameRequired })
  .trim()
  .min(1, slaMessages.nameRequired)
  .max(slaLimits.nameMax, slaMessages.nameTooLong);
const conditions = z.array(conditionSchema).max(slaLimits.conditions, slaMessages.tooManyConditions);

/** `POST /api/sla`: at least one target. */
export const createSlaBody = z
  .object({
    name: nameField,
    projectId: id.nullish(),
    conditions: conditions.default([]),
    respondWithin: duration('respondWithin').nullish(),
    resolveWithin: duration('resolveWithin').nullish(),
  })
  .refine((b) => b.respondWithin != null || b.resolveWithin != null, {
    error: slaMessages.targetRequired,
    path: ['respondWithin'],
  });
/** `PATCH /api/sla/{id}`: only what is sent changes; null drops a target (one must stay). */
export const updateSlaBody = z.object({
  name: nameField.optional(),
  conditions: conditions.optional(),
  respondWithin: z.union([z.null(), duration('respondWithin')]).optional(),
  resolveWithin: z.union([z.null(), duration('resolveWithin')]).optional(),
});

const seconds = z.number().int().min(1).max(slaLimits.maxSeconds).nullable();

export const slaEventSchemas = {
  SlaPolicyCreated: {
    version: 1,
    data: z.object({
      policyId: id,
      name: z.string().min(1).max(slaLimits.nameMax),
      projectId: id.nullable(),
      conditions: z.array(storedCondition).max(slaLimits.conditions),
      respondSeconds: seconds,
      resolveSeconds: seconds,
      /** Its place among policies (the first that holds for a bug is the bug's), and whence breaches are told. */
      createdAt: z.string(),
    }),
  },
  /** Only what changed is in it; `changedAt`: breaches due before it are not told (they were measured, not missed live). */
  SlaPolicyChanged: {
    version: 1,
    data: z.object({
      policyId: id,
      name: z.string().min(1).max(slaLimits.nameMax).optional(),
      conditions: z.array(storedCondition).max(slaLimits.conditions).optional(),
      respondSeconds: seconds.optional(),
      resolveSeconds: seconds.optional(),
      changedAt: z.string(),
    }),
  },
  SlaPolicyDeleted: { version: 1, data: z.object({ policyId: id, name: z.string() }) },
} as const;

/** The clock's, on the bug's stream: a target of the bug's policy passed unmet. */
export const slaBreachEventSchemas = {
  BugSlaBreached: {
    version: 1,
    data: z.object({
      bugId: id,
      policyId: id,
      policyName: z.string().max(slaLimits.nameMax),
      target: z.enum(slaTargets),
      dueAt: z.string(),
    }),
  },
} as const;
export const slaBreachEventTypes: ReadonlySet<string> = new Set(Object.keys(slaBreachEventSchemas));

type Schemas = typeof slaEventSchemas & typeof slaBreachEventSchemas;
export type SlaEventData<Type extends keyof Schemas> = z.infer<Schemas[Type]['data']>;

export type SlaConditions = readonly AutomationCondition[];
