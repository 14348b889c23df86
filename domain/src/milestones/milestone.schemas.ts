import { z } from 'zod';

/**
 * Milestones (api.md "Milestones", issue 36): a project's releases, each with its dates and the
 * bugs planned into it. A milestone is one stream (`milestone-{id}`); a bug names its milestone
 * on its own stream (`BugMilestoneSet`), so the burn-up is read off the event log as it was.
 */
export const milestoneLimits = { nameMax: 100, descriptionMax: 5000 } as const;

export const milestoneMessages = {
  notFound: 'Milestone not found',
  adminsAndLeads: 'Only admins and the project’s leads can manage its milestones',
  nameRequired: 'Milestone name is required',
  nameTooLong: `Milestone name must be at most ${milestoneLimits.nameMax} characters`,
  descriptionTooLong: `Milestone description must be at most ${milestoneLimits.descriptionMax} characters`,
  dateInvalid: 'Dates must be YYYY-MM-DD',
  startAfterDue: 'The start date must not be after the due date',
  otherProject: 'That milestone belongs to another project',
  cannotPlan: "You don't have permission to change this bug's milestone",
} as const;

const day = /^\d{4}-\d{2}-\d{2}$/;
/** A real calendar day, `YYYY-MM-DD`. */
export const isDay = (text: string): boolean => {
  if (!day.test(text)) return false;
  const date = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === text;
};

const id = z.string().min(1).max(100);
const name = z.string().min(1).max(milestoneLimits.nameMax);
const description = z.string().max(milestoneLimits.descriptionMax);
const dayValue = z.string().refine(isDay).nullable();

export const milestoneEventSchemas = {
  MilestoneCreated: {
    version: 1,
    data: z.object({ milestoneId: id, projectId: id, name, description, startDate: dayValue, dueDate: dayValue }),
  },
  /** Only what changed is in it. */
  MilestoneChanged: {
    version: 1,
    data: z.object({
      milestoneId: id,
      name: name.optional(),
      description: description.optional(),
      startDate: dayValue.optional(),
      dueDate: dayValue.optional(),
    }),
  },
  MilestoneClosed: { version: 1, data: z.object({ milestoneId: id }) },
  MilestoneReopened: { version: 1, data: z.object({ milestoneId: id }) },
  MilestoneDeleted: { version: 1, data: z.object({ milestoneId: id }) },
} as const;

type Schemas = typeof milestoneEventSchemas;
export type MilestoneEventData<Type extends keyof Schemas> = z.infer<Schemas[Type]['data']>;

const nameField = z
  .string({ error: milestoneMessages.nameRequired })
  .trim()
  .min(1, { error: milestoneMessages.nameRequired, abort: true })
  .max(milestoneLimits.nameMax, milestoneMessages.nameTooLong);
const descriptionField = z
  .string({ error: milestoneMessages.descriptionTooLong })
  .trim()
  .max(milestoneLimits.descriptionMax, milestoneMessages.descriptionTooLong)
  .nullish();
const dayField = z
  .string({ error: milestoneMessages.dateInvalid })
  .trim()
  .refine(isDay, milestoneMessages.dateInvalid)
  .nullish();

/** `POST /api/projects/{id}/milestones`. */
export const createMilestoneBody = z.object({
  name: nameField,
  description: descriptionField,
  startDate: dayField,
  dueDate: dayField,
});
/** `PATCH /api/milestones/{id}`: only what is sent changes; `closed` closes or reopens it. */
export const updateMilestoneBody = z.object({
  name: nameField.optional(),
  description: descriptionField,
  startDate: dayField,
  dueDate: dayField,
  closed: z.boolean({ error: 'closed must be true or false' }).optional(),
});
/** `PUT /api/bugs/{id}/milestone`. */
export const bugMilestoneBody = z.object({
  milestoneId: z.string({ error: 'milestoneId must be a milestone id or null' }).trim().min(1).max(100).nullable(),
});

export const milestoneDtoSchema = z.object({
  _id: z.string(),
  projectId: z.string(),
  name: z.string(),
  description: z.string(),
  startDate: z.string().nullable().describe('YYYY-MM-DD'),
  dueDate: z.string().nullable().describe('YYYY-MM-DD'),
  closedAt: z.string().nullable().describe('ISO 8601, once closed'),
  progress: z
    .object({ total: z.number().int(), closed: z.number().int() })
    .describe('Its bugs now: how many, how many Closed'),
  estimate: z.number().describe('Hours: the estimates of its bugs now, together'),
  spent: z.number().describe('Hours logged on its bugs, every entry together (to the hundredth)'),
  spentMinutes: z.number().int().describe('The same, in minutes'),
});
export type MilestoneDto = z.infer<typeof milestoneDtoSchema>;
